import fs from 'node:fs';
import path from 'node:path';
import { request, test as base } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { PETSTORE_V1 } from '../src/server/test/openapi-fixtures';
import { makeTestIdp } from './idp';
import {
  accessibilityViolations,
  callApi,
  changePage,
  expect,
  newOrganization,
  newSpace,
  ownerStorageState,
  seedPage,
  SIGNED_OUT,
  uniqueEmail,
  watchBrowserErrors,
} from './support';
import type { StorageState } from './support';

/**
 * Every screen of the console (the routes listed at the top of src/console/router.tsx), with seeded content, on a
 * desktop and a phone: in the light scheme, no serious or critical WCAG 2.1 A/AA violation that axe finds, nothing
 * wider than the window (no sideways scrolling), and nothing cut off at the edge of a box; in the dark scheme, which
 * changes colours and not the layout, no colour contrast too low (axe's `color-contrast` rule), on the desktop: the
 * colours are the same tokens at both widths, and checking them again at phone size (in either scheme) was a good
 * part of this file's time (Chromium's work is three quarters of the journeys' CPU time).
 *
 * One test per screen, so that one broken screen does not hide the others; each test checks its variants and
 * lists every failure at the end. The screens run on every worker; the content is seeded once per run, by the first
 * worker (kept in a file beside the database, which the others read, as does a new worker after a failed test), and
 * each size's browser pages (signed in, signed out) are kept for the whole worker.
 * With SCREENSHOTS=1, each variant's full page is saved beside the test's results, to look at.
 */

const SIZES = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
} as const;
type Size = keyof typeof SIZES;
/** What is checked in each scheme (see above): everything in the light one, the colours in the dark one. */
const SCHEMES = [
  { scheme: 'light', axeRules: undefined, layout: true, sizes: ['desktop', 'phone'] },
  { scheme: 'dark', axeRules: ['color-contrast'], layout: false, sizes: ['desktop'] },
] as const;
/**
 * Rules left out at phone size: colour contrast, axe's costliest rule, as in the dark scheme: the colours are the
 * same tokens at both widths, and the desktop checks them.
 */
const PHONE_SKIPS = ['color-contrast'] as const;

const INTEGRATION = 'screens-stats';

interface Seed {
  organization: string;
  collection: string;
  space: string;
  page: string;
  review: number;
  conflicted: number;
  revision: string;
  site: string;
  plainSite: string;
  team: string;
  invite: string;
}

/** The content every screen shows: one organization, filled through the API (by `page`, signed in as the owner). */
async function seedContent(page: Page, baseURL: string): Promise<Seed> {
  const organization = await newOrganization(page, 'Screens');
  const orgs = `/orgs/${organization}`;

  // People: a second member (signed up through the API with an invite link), a team, an e-mail domain, SSO.
  const invite = await callApi(page, 'POST', `${orgs}/link-invites`, { role: 'edit' });
  const visitor = await request.newContext({ baseURL, storageState: SIGNED_OUT });
  const signup = await visitor.post('/v1/auth/signup', {
    data: {
      email: uniqueEmail('wendy'),
      password: 'a-long-enough-password',
      displayName: 'Wendy Writer',
      invite: { organization, id: invite.id },
    },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  await visitor.dispose();
  const members = await callApi(page, 'GET', `${orgs}/members`);
  const team = await callApi(page, 'PUT', `${orgs}/teams`, {
    title: 'Writers',
    members: members.items.map((member: { id: string }) => member.id),
  });
  await callApi(page, 'POST', `${orgs}/email-domains`, { domain: 'screens.example.com' });
  const idp = await makeTestIdp();
  await callApi(page, 'POST', `${orgs}/saml`, {
    label: 'Corporate sign-in',
    entityID: idp.entityId,
    ssoURL: idp.ssoURL,
    certificate: idp.cert,
    defaultRole: 'read',
  });
  await callApi(page, 'POST', `${orgs}/translations`, { title: 'Handbook in French', languages: ['fr', 'de'] });

  // An API specification, processed: its reference, and an operation shown in a page.
  await callApi(page, 'POST', `${orgs}/openapi`, { slug: 'petstore', source: { text: PETSTORE_V1 } });
  await expect
    .poll(async () => (await callApi(page, 'GET', `${orgs}/openapi/petstore`)).processingState, { timeout: 20_000 })
    .toBe('complete');

  // Content: a collection with a space of two pages, a space at the root, a deleted one in the trash.
  const collection = await callApi(page, 'POST', `${orgs}/collections`, { title: 'Guides' });
  const space = await callApi(page, 'POST', `${orgs}/spaces`, { title: 'Handbook', parent: collection.id });
  // Its first blocks stay as they are in the change request to review, far enough from a change to fold away there.
  const unchanged = ['# Install', 'Docspace runs on Linux, macOS and Windows.', 'It needs nothing else installed.'];
  const pageId = await seedPage(
    page,
    space.id,
    'Install',
    [
      ...unchanged,
      'Download the installer from [the releases page](https://example.com/releases), then run it. ' +
        'See [Configure](./configure.md) for what comes next, or [a page that is gone](/pages/nowhere).',
      '## Requirements',
      '- A computer with **4 GB** of memory\n- A network connection\n- `curl` or `wget`',
      '| System | Installer |\n| --- | --- |\n| Linux | `install.sh` |\n| Windows | `install.exe` |',
      '```bash\ncurl -fsSL https://example.com/install.sh | sh -s -- --prefix=/usr/local/share/docspace --verbose\ndocspace init\n```',
      '> The installer asks for your password once.',
      '{% openapi-operation spec="petstore" path="/pets" method="get" %}',
    ].join('\n\n'),
  );
  const second = await seedPage(page, space.id, 'Configure', 'Alpha paragraph.\n\nBeta paragraph.');
  const notes = await callApi(page, 'POST', `${orgs}/spaces`, { title: 'Release notes' });
  await seedPage(page, notes.id, 'Version 2', 'What is new in version 2.');
  const old = await callApi(page, 'POST', `${orgs}/spaces`, { title: 'Old notes' });
  await callApi(page, 'DELETE', `/spaces/${old.id}`);

  // Two change requests change the same paragraph; the first merged, the second's update from the space conflicts.
  const merged = await changePage(page, space.id, second, 'Alpha by Ann.\n\nBeta paragraph.');
  const conflicted = await changePage(page, space.id, second, 'Alpha by Bob.\n\nBeta paragraph.');
  await callApi(page, 'POST', `/spaces/${space.id}/change-requests/${merged}/merge`);
  await callApi(page, 'POST', `/spaces/${space.id}/change-requests/${conflicted}/update`);
  const revision = (await callApi(page, 'GET', `/spaces/${space.id}/change-requests/${merged}`)).revisionMerged;

  // A change request to review, up to date, with a comment on its page. Its changed blocks have their changed words
  // marked, in text and in code (at the start of a line, and at the end of one too long for the block).
  const review = await changePage(
    page,
    space.id,
    pageId,
    [
      ...unchanged,
      'Download the installer from [the releases page](https://example.com/releases), then run it twice. ' +
        'See [Configure](./configure.md) for what comes next.',
      '## Requirements',
      '- A computer with **8 GB** of memory\n- A network connection',
      '```bash\ncurl -fsSL https://example.com/install.sh | sh -s -- --prefix=/usr/local/share/docspace --quiet\ndocspace --version\n```',
      '> The installer asks for your password once, then restarts.',
    ].join('\n\n'),
  );
  await callApi(page, 'POST', `/spaces/${space.id}/change-requests/${review}/comments`, {
    page: pageId,
    body: { markdown: 'Is **twice** right? See [the notes](https://example.com/notes).' },
  });

  // A site with the space, a share link and adaptive content; and a plain one, where those tabs point to settings.
  const site = await callApi(page, 'POST', `${orgs}/sites`, {
    title: 'Handbook site',
    visibility: 'share-link',
    spaces: [space.id],
  });
  const siteApi = `${orgs}/sites/${site.id}`;
  await callApi(page, 'POST', `${siteApi}/share-links`, { name: 'Beta readers' });
  await callApi(page, 'PATCH', siteApi, { adaptiveContent: { enabled: true } });
  await callApi(page, 'PUT', `${siteApi}/adaptive-schema`, {
    jsonSchema: {
      type: 'object',
      properties: { beta: { type: 'boolean', description: 'Whether the visitor tests new features' } },
      additionalProperties: false,
    },
  });
  await callApi(page, 'POST', `${siteApi}/publish`);
  // Its one space has a long title (and so a long path), on the row that carries the "Default" badge.
  const longTitled = await newSpace(page, organization, 'Installing the command-line tools on a new laptop');
  const plainSite = await callApi(page, 'POST', `${orgs}/sites`, { title: 'Plain site', spaces: [longTitled] });

  // An integration of the organization, installable on spaces.
  await callApi(page, 'POST', `/integrations/${INTEGRATION}`, {
    title: 'Screens stats',
    description: 'Counts how often each page is read',
    summary: 'Adds **page view counts** to your spaces. See [the documentation](https://example.com/stats).',
    scopes: ['space:content:read'],
    categories: ['analytics'],
    target: 'space',
    visibility: 'public',
    script: 'export default {}',
    organization,
    externalLinks: [{ url: 'https://example.com/stats', label: 'Documentation' }],
  });

  return {
    organization,
    collection: collection.id,
    space: space.id,
    page: pageId,
    review,
    conflicted,
    revision,
    site: site.id,
    plainSite: plainSite.id,
    team: team.id,
    invite: invite.id,
  };
}

interface Screen {
  name: string;
  path: (seed: Seed) => string;
  /** Seen by someone not signed in. */
  signedOut?: boolean;
  /** What shows once the screen has its content (by default its level-1 heading). */
  ready?: (page: Page) => Locator;
}

const org = (s: Seed) => `/o/${s.organization}`;
const space = (s: Seed) => `${org(s)}/spaces/${s.space}`;
const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name });

const SCREENS: Screen[] = [
  { name: 'login', path: () => '/login', signedOut: true },
  { name: 'signup', path: () => '/signup', signedOut: true },
  { name: 'join page', path: (s) => `/join/${s.organization}/${s.invite}`, signedOut: true },
  { name: 'home', path: () => '/', ready: heading('Content') },
  { name: 'account', path: () => '/account' },
  { name: 'organization home', path: org, ready: heading('Content') },
  { name: 'trash', path: (s) => `${org(s)}/trash`, ready: (page) => page.getByText('Old notes') },
  { name: 'sites list', path: (s) => `${org(s)}/sites`, ready: (page) => page.getByText('Plain site') },
  {
    name: 'site structure',
    path: (s) => `${org(s)}/sites/${s.site}/structure`,
    ready: (page) => page.getByRole('list', { name: 'Site structure' }),
  },
  {
    name: 'site structure, a long space title',
    path: (s) => `${org(s)}/sites/${s.plainSite}/structure`,
    ready: (page) => page.getByText('Installing the command-line tools on a new laptop'),
  },
  {
    name: 'site share links',
    path: (s) => `${org(s)}/sites/${s.site}/share-links`,
    ready: (page) => page.getByRole('list', { name: 'Share links' }),
  },
  {
    name: 'site share links, not a share-link site',
    path: (s) => `${org(s)}/sites/${s.plainSite}/share-links`,
  },
  {
    name: 'site adaptive content',
    path: (s) => `${org(s)}/sites/${s.site}/adaptive`,
    ready: (page) => page.getByRole('list', { name: 'Template conditions' }),
  },
  { name: 'site adaptive content, turned off', path: (s) => `${org(s)}/sites/${s.plainSite}/adaptive` },
  {
    name: 'site customization',
    path: (s) => `${org(s)}/sites/${s.site}/customization`,
    // The live preview: the published site in a frame, which axe checks too.
    ready: (page) => page.frameLocator('iframe').getByRole('heading', { level: 1, name: 'Install' }),
  },
  {
    name: 'site settings',
    path: (s) => `${org(s)}/sites/${s.site}/settings`,
    ready: (page) => page.getByRole('form', { name: 'Site settings' }),
  },
  { name: 'organization settings: general', path: (s) => `${org(s)}/settings/general` },
  {
    name: 'organization settings: members',
    path: (s) => `${org(s)}/settings/members`,
    ready: (page) => page.getByText('Wendy Writer').first(),
  },
  { name: 'organization settings: invites', path: (s) => `${org(s)}/settings/invites` },
  {
    name: 'organization settings: teams',
    path: (s) => `${org(s)}/settings/teams`,
    ready: (page) => page.getByText('Writers').first(),
  },
  {
    name: 'organization settings: one team',
    path: (s) => `${org(s)}/settings/teams/${s.team}`,
    ready: (page) => page.getByText('Wendy Writer').first(),
  },
  {
    name: 'organization settings: e-mail domains',
    path: (s) => `${org(s)}/settings/domains`,
    ready: (page) => page.getByText('screens.example.com').first(),
  },
  {
    name: 'organization settings: single sign-on',
    path: (s) => `${org(s)}/settings/sso`,
    ready: (page) => page.getByText('Corporate sign-in').first(),
  },
  {
    name: 'organization settings: translations',
    path: (s) => `${org(s)}/settings/translations`,
    ready: (page) => page.getByText('Handbook in French').first(),
  },
  { name: 'collection', path: (s) => `${org(s)}/collections/${s.collection}`, ready: heading('Guides') },
  {
    name: 'space page',
    path: (s) => `${space(s)}/pages/${s.page}`,
    ready: (page) => page.getByRole('region', { name: 'GET /pets', exact: true }),
  },
  {
    name: 'change requests',
    path: (s) => `${space(s)}/change-requests`,
    ready: (page) => page.getByText('Rewrite').first(),
  },
  {
    name: 'change request review, side by side',
    path: (s) => `${space(s)}/change-requests/${s.review}`,
    // Phones show the inline view whatever the choice.
    ready: (page) => page.getByText('restarts').first(),
  },
  {
    name: 'change request review, inline',
    path: (s) => `${space(s)}/change-requests/${s.review}?view=inline`,
    ready: (page) => page.getByText('restarts').first(),
  },
  {
    name: 'change request editor',
    path: (s) => `${space(s)}/change-requests/${s.review}/pages/${s.page}`,
    ready: (page) => page.getByRole('textbox', { name: 'Content' }),
  },
  {
    name: 'change request conflicts',
    path: (s) => `${space(s)}/change-requests/${s.conflicted}/conflicts`,
    ready: (page) => page.getByRole('heading', { name: '1 conflict to resolve' }),
  },
  {
    name: 'revision',
    path: (s) => `${space(s)}/revisions/${s.revision}`,
    ready: (page) => page.getByRole('note'),
  },
  {
    name: 'links report',
    path: (s) => `${space(s)}/links`,
    ready: (page) => page.getByRole('table'),
  },
  { name: 'space settings', path: (s) => `${space(s)}/settings` },
  {
    name: 'space history',
    path: (s) => `${space(s)}/history`,
    ready: (page) => page.getByText('Rewrite').first(),
  },
  {
    name: 'API specifications',
    path: (s) => `${org(s)}/openapi`,
    ready: (page) => page.getByRole('link', { name: 'petstore' }),
  },
  {
    name: 'an API specification',
    path: (s) => `${org(s)}/openapi/petstore`,
    ready: (page) => page.getByRole('region', { name: 'GET /pets', exact: true }),
  },
  {
    name: 'integrations',
    path: (s) => `${org(s)}/integrations`,
    ready: (page) => page.getByRole('link', { name: /Screens stats/ }),
  },
  { name: 'an integration', path: (s) => `${org(s)}/integrations/${INTEGRATION}`, ready: heading('Screens stats') },
  {
    name: 'not found',
    path: (s) => `${org(s)}/no-such-screen`,
    ready: (page) => page.getByRole('heading', { name: 'This page does not exist' }),
  },
  {
    name: 'not found, outside an organization',
    path: () => '/no/such/place',
    ready: (page) => page.getByRole('heading', { name: 'This page does not exist' }),
  },
];

/** How long seeding the content may take. */
const SEED_TIMEOUT = 120_000;

/** True for the one caller that creates the lock file (of all the workers of a run). */
function takeLock(file: string): boolean {
  try {
    fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

interface Viewer {
  page: Page;
  errors: string[];
}

const test = base.extend<
  object,
  { ownerState: StorageState; seed: Seed; viewers: Record<Size, { signedIn: Viewer; signedOut: Viewer }> }
>({
  // The owner, signed in once per worker through the API (see support.ts).
  ownerState: [
    async ({ playwright }, use, workerInfo) => use(await ownerStorageState(playwright.request, workerInfo)),
    { scope: 'worker' },
  ],
  seed: [
    async ({ browser, ownerState }, use, workerInfo) => {
      const dir = process.env.DS_E2E_DATA_DIR;
      if (!dir) throw new Error('DS_E2E_DATA_DIR is set by playwright.config.ts');
      const file = path.join(dir, 'screens-seed.json');
      const failed = path.join(dir, 'screens-seed-failed.txt');
      // The first worker to take the lock seeds; any other waits for the seed (or its failure) to be written.
      if (!takeLock(path.join(dir, 'screens-seed.lock'))) {
        await expect
          .poll(() => fs.existsSync(file) || fs.existsSync(failed), {
            message: 'another worker seeds the content',
            timeout: SEED_TIMEOUT,
          })
          .toBe(true);
      }
      // Seeding that failed once fails the same way again: the next workers say so at once.
      if (fs.existsSync(failed)) throw new Error(`Seeding failed: ${fs.readFileSync(failed, 'utf8')}`);
      if (!fs.existsSync(file)) {
        const context = await browser.newContext({ storageState: ownerState });
        try {
          const seed = await seedContent(await context.newPage(), workerInfo.project.use.baseURL!);
          fs.writeFileSync(file, JSON.stringify(seed));
        } catch (error) {
          fs.writeFileSync(failed, error instanceof Error ? (error.stack ?? error.message) : String(error));
          throw error;
        } finally {
          await context.close();
        }
      }
      await use(JSON.parse(fs.readFileSync(file, 'utf8')) as Seed);
    },
    // Waiting for another worker's seeding takes as long as seeding.
    { scope: 'worker', timeout: 2 * SEED_TIMEOUT },
  ],
  viewers: [
    // After the seed: the pages show what it made.
    async ({ browser, ownerState, seed: _seed }, use) => {
      const open = async (size: Size, signedIn: boolean): Promise<Viewer> => {
        const context = await browser.newContext({
          ...SIZES[size],
          reducedMotion: 'reduce',
          storageState: signedIn ? ownerState : SIGNED_OUT,
        });
        const page = await context.newPage();
        return { page, errors: watchBrowserErrors(page) };
      };
      const viewers = {
        desktop: { signedIn: await open('desktop', true), signedOut: await open('desktop', false) },
        phone: { signedIn: await open('phone', true), signedOut: await open('phone', false) },
      };
      await use(viewers);
      for (const size of Object.values(viewers)) {
        await size.signedIn.page.context().close();
        await size.signedOut.page.context().close();
      }
    },
    { scope: 'worker' },
  ],
});

/** Waits for the transitions the change of scheme started (colors fading), so axe reads the final colors. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Null when nothing is wider than the window; otherwise what sticks out (outside of any scrolling or clipping box,
 * and of fixed layers), with how far it reaches: the outermost such elements (whose parent fits), and the innermost
 * (no child of which sticks out), where the cause usually is.
 */
async function horizontalOverflow(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return null;
    const limit = root.clientWidth;
    const counts = (element: Element) => {
      for (let at: Element | null = element; at && at !== root; at = at.parentElement) {
        const style = getComputedStyle(at);
        if (style.position === 'fixed') return false;
        if (at !== element && style.overflowX !== 'visible') return false;
      }
      return true;
    };
    const sticksOut = (element: Element | null) => !!element && element.getBoundingClientRect().right > limit + 0.5;
    const out = [...document.body.querySelectorAll('*')].filter((element) => sticksOut(element) && counts(element));
    const describe = (element: Element) => {
      const classes = [...element.classList].map((name) => `.${name}`).join('');
      const box = element.getBoundingClientRect();
      return `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${classes} (left ${Math.round(box.left)}, width ${Math.round(box.width)})`;
    };
    const outermost = out.filter((element) => !out.includes(element.parentElement!)).slice(0, 5);
    const innermost = out.filter((element) => !out.some((other) => other.parentElement === element)).slice(0, 5);
    return (
      `scrollWidth ${root.scrollWidth} > clientWidth ${limit}; ` +
      `outermost: ${outermost.map(describe).join(', ') || 'none found'}; ` +
      `innermost: ${innermost.map(describe).join(', ') || 'none found'}`
    );
  });
}

/**
 * Boxes that hide part of what they hold (overflow hidden or clip, wider content): text cut off at the edge, which
 * no scrollbar reveals. Form fields (their text scrolls as one types) and ellipsis truncation are meant to.
 */
async function cutOffContent(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const cut = [...document.body.querySelectorAll('*')].filter((element) => {
      if (element.matches('input, textarea, select') || element.clientWidth <= 1) return false;
      const style = getComputedStyle(element);
      return (
        (style.overflowX === 'hidden' || style.overflowX === 'clip') &&
        style.textOverflow !== 'ellipsis' &&
        element.scrollWidth > element.clientWidth + 1
      );
    });
    if (cut.length === 0) return null;
    return cut
      .slice(0, 5)
      .map((element) => {
        const classes = [...element.classList].map((name) => `.${name}`).join('');
        return `${element.tagName.toLowerCase()}${classes} (content ${element.scrollWidth} wide in ${element.clientWidth})`;
      })
      .join(', ');
  });
}

test.describe.configure({ mode: 'parallel' });

for (const screen of SCREENS) {
  test(screen.name, async ({ seed, viewers }) => {
    const failures: string[] = [];
    for (const size of Object.keys(SIZES) as Size[]) {
      const { page, errors } = viewers[size][screen.signedOut ? 'signedOut' : 'signedIn'];
      try {
        await page.emulateMedia({ colorScheme: 'light' });
        await page.goto(screen.path(seed));
        await expect((screen.ready ?? ((p: Page) => p.getByRole('heading', { level: 1 })))(page)).toBeVisible({
          timeout: 15_000,
        });
        // Nothing still loading: a spinner, or a part that says it is busy (markdown before its renderer loads).
        await expect(page.locator('.state-loading, [aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
        for (const { scheme, axeRules, layout, sizes } of SCHEMES) {
          if (!(sizes as readonly Size[]).includes(size)) continue;
          await page.emulateMedia({ colorScheme: scheme });
          await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
          await settle(page);
          if (process.env.SCREENSHOTS) {
            await page.screenshot({ path: test.info().outputPath(`${size}-${scheme}.png`), fullPage: true });
          }
          const violations = await accessibilityViolations(page, {
            impacts: ['serious', 'critical'],
            rules: axeRules,
            ...(size === 'phone' ? { skip: PHONE_SKIPS } : {}),
          });
          failures.push(...violations.map((violation) => `[${size}, ${scheme}] ${violation}`));
          if (!layout) continue;
          const overflow = await horizontalOverflow(page);
          if (overflow) failures.push(`[${size}, ${scheme}] horizontal overflow: ${overflow}`);
          const cutOff = await cutOffContent(page);
          if (cutOff) failures.push(`[${size}, ${scheme}] content cut off: ${cutOff}`);
        }
      } catch (error) {
        failures.push(`[${size}] ${error instanceof Error ? error.message : String(error)}`);
      }
      failures.push(...errors.splice(0).map((error) => `[${size}] ${error}`));
    }
    expect(failures.length, `${failures.length} failures on ${screen.name}:\n\n${failures.join('\n\n')}`).toBe(0);
  });
}
