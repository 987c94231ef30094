import AxeBuilder from '@axe-core/playwright';
import type { Cookie, Page } from '@playwright/test';
import { callApi, createOrganization, createSpaceAtRoot, expect, openSpace, seedPage, signIn, test } from './support';
import { PETSTORE_V1 } from '../src/server/test/openapi-fixtures';

/**
 * Every console screen, at desktop and phone size, in the light and the dark theme (the system's, which the
 * console follows without reloading): no serious or critical accessibility violation, and nothing wider than the
 * window (tables and code blocks scroll inside their own block).
 */

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const MARKDOWN = [
  '# Handbook',
  '',
  'Read the [style guide](https://example.com/style) before writing, and keep sentences short.',
  '',
  '- [x] Write the first draft',
  '- [ ] Ask for a review',
  '',
  '| Command | What it does | Where it runs | Who may run it | Notes about it that make the table wide |',
  '| --- | --- | --- | --- | --- |',
  '| `docspace publish --site handbook --everything` | Publishes the site | Anywhere | Admins | A long cell of text to make the table wider than a phone |',
  '',
  '```ts',
  'export const aVeryLongLineOfCode = someFunctionWithALongName({ option: true, anotherOption: "a long string value" });',
  '```',
].join('\n');

interface Seeded {
  cookies: Cookie[];
  organizationId: string;
  spaceId: string;
  pageId: string;
  revisionId: string;
  draftNumber: number;
  collectionId: string;
  siteId: string;
  teamId: string;
  inviteId: string;
}

let seeded: Seeded;

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page);
  const organizationId = await createOrganization(page, 'Screens');
  await createSpaceAtRoot(page, 'Handbook');
  const spaceId = await openSpace(page, 'Handbook');
  const pageId = await seedPage(page, spaceId, 'Handbook', MARKDOWN);
  const revisionId = ((await callApi(page, 'GET', `/spaces/${spaceId}`)) as { revision: string }).revision;
  // A draft change request that rewrites the page: the review screen shows its diff.
  const draft = await callApi(page, 'POST', `/spaces/${spaceId}/change-requests`, { subject: 'Tighten the handbook' });
  await callApi(page, 'POST', `/spaces/${spaceId}/change-requests/${draft.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Onboarding', document: { markdown: 'Welcome, **new colleague**.' } }],
  });
  const collection = await callApi(page, 'POST', `/orgs/${organizationId}/collections`, { title: 'Guides' });
  const site = await callApi(page, 'POST', `/orgs/${organizationId}/sites`, {
    title: 'Handbook site',
    visibility: 'public',
    spaces: [spaceId],
  });
  const team = await callApi(page, 'PUT', `/orgs/${organizationId}/teams`, { title: 'Writers', members: [] });
  const invite = await callApi(page, 'POST', `/orgs/${organizationId}/link-invites`, { role: 'read' });
  await callApi(page, 'POST', `/orgs/${organizationId}/openapi`, { slug: 'petstore', source: { text: PETSTORE_V1 } });
  seeded = {
    cookies: await context.cookies(),
    organizationId,
    spaceId,
    pageId,
    revisionId,
    draftNumber: draft.number as number,
    collectionId: collection.id as string,
    siteId: site.id as string,
    teamId: team.id as string,
    inviteId: invite.id as string,
  };
  await context.close();
});

/** The checks on the screen as it is: in both themes, without reloading. */
async function checkBothThemes(page: Page, label: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
    await test.step(`${label}, ${colorScheme}`, async () => {
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect.soft(scrollWidth, `${label} (${colorScheme}) is wider than the window`).toBeLessThanOrEqual(innerWidth);
      await expectNoSeriousViolation(page, `${label} (${colorScheme})`);
    });
  }
}

/** What axe finds of impact serious or critical (WCAG 2.1 A/AA), each with the elements it concerns. */
async function expectNoSeriousViolation(page: Page, label: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const found = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html}`).join(', ')}`,
    );
  expect.soft(found, `accessibility violations on ${label}`).toEqual([]);
}

interface Screen {
  name: string;
  path: () => string;
  /** What shows once the screen is loaded (a level-1 heading unless said otherwise). */
  ready?: (page: Page) => ReturnType<Page['getByRole']>;
  signedOut?: boolean;
}

const o = () => `/o/${seeded.organizationId}`;
const s = () => `${o()}/spaces/${seeded.spaceId}`;
const cr = () => `${s()}/change-requests/${seeded.draftNumber}`;

const SCREENS: Screen[] = [
  { name: 'organizations home', path: () => '/' },
  { name: 'organization content', path: () => o() },
  { name: 'a collection', path: () => `${o()}/collections/${seeded.collectionId}` },
  { name: 'a space page', path: () => `${s()}/pages/${seeded.pageId}` },
  { name: 'space settings', path: () => `${s()}/settings` },
  { name: 'links report', path: () => `${s()}/links` },
  { name: 'a revision', path: () => `${s()}/revisions/${seeded.revisionId}` },
  { name: 'change requests', path: () => `${s()}/change-requests` },
  { name: 'change request review', path: () => cr() },
  { name: 'change request inline review', path: () => `${cr()}?view=inline` },
  { name: 'change request editor', path: () => `${cr()}/pages` },
  { name: 'change request conflicts', path: () => `${cr()}/conflicts` },
  { name: 'sites', path: () => `${o()}/sites` },
  { name: 'site structure', path: () => `${o()}/sites/${seeded.siteId}/structure` },
  { name: 'site share links', path: () => `${o()}/sites/${seeded.siteId}/share-links` },
  { name: 'site adaptive content', path: () => `${o()}/sites/${seeded.siteId}/adaptive` },
  { name: 'site customization', path: () => `${o()}/sites/${seeded.siteId}/customization` },
  { name: 'site settings', path: () => `${o()}/sites/${seeded.siteId}/settings` },
  { name: 'API specs', path: () => `${o()}/openapi` },
  { name: 'an API spec', path: () => `${o()}/openapi/petstore` },
  { name: 'integrations', path: () => `${o()}/integrations` },
  { name: 'trash', path: () => `${o()}/trash` },
  { name: 'members', path: () => `${o()}/settings/members` },
  { name: 'teams', path: () => `${o()}/settings/teams` },
  { name: 'a team', path: () => `${o()}/settings/teams/${seeded.teamId}` },
  { name: 'invite links', path: () => `${o()}/settings/invites` },
  { name: 'e-mail domains', path: () => `${o()}/settings/domains` },
  { name: 'single sign-on', path: () => `${o()}/settings/sso` },
  { name: 'translations', path: () => `${o()}/settings/translations` },
  { name: 'account', path: () => '/account' },
  {
    name: 'not found',
    path: () => `${o()}/no-such-screen`,
    ready: (page) => page.getByText('This page does not exist'),
  },
  { name: 'sign in', path: () => '/login', signedOut: true },
  { name: 'sign up', path: () => '/signup', signedOut: true },
  { name: 'join by invite link', path: () => `/join/${seeded.organizationId}/${seeded.inviteId}`, signedOut: true },
];

for (const screen of SCREENS) {
  test(`${screen.name}: accessible and no wider than the window, desktop and phone, light and dark`, async ({
    page,
  }) => {
    if (!screen.signedOut) await page.context().addCookies(seeded.cookies);
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(screen.path());
      const ready = screen.ready?.(page) ?? page.getByRole('heading', { level: 1 }).first();
      await expect(ready).toBeVisible({ timeout: 15_000 });
      await expect(page.locator('.spinner')).toHaveCount(0, { timeout: 15_000 });
      await checkBothThemes(page, `${screen.name} on a ${size}`);
    }
  });
}
