import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test as base } from '@playwright/test';
import type { APIRequest, Browser, BrowserContext, BrowserContextOptions, Page, WorkerInfo } from '@playwright/test';

export type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/** The storage state of a browser nobody has signed in to. */
export const SIGNED_OUT: StorageState = { cookies: [], origins: [] };

/**
 * `test` whose browser starts signed in as the owner, and that also fails on errors in the browser.
 *
 * Signed in: each worker signs the owner in once, through the API (`POST /v1/auth/login` answers with the session
 * cookie `ds_session` and the CSRF cookie `ds_csrf`, which the console echoes in its header on writes), and every
 * test's browser starts from that storage state: the form ran as set-up 30 times a run. Playwright gives the state
 * to every context a test opens, so someone else's browser opens with `newBrowser` (signed out), and the journeys
 * that test signing in use `test.use({ storageState: SIGNED_OUT })`. No journey may sign this session out or revoke
 * it: one that signs out signs in first in a browser of its own.
 *
 * Errors in the browser: uncaught exceptions, and console errors such as an answer that does not match the
 * contract. The browser's own "Failed to load resource" lines for expected 4xx answers (401 before signing in, a
 * refused form) are not errors of the console.
 */
export const test = base.extend<{ browserErrors: string[] }, { ownerState: StorageState }>({
  ownerState: [
    async ({ playwright }, use, workerInfo) => use(await ownerStorageState(playwright.request, workerInfo)),
    { scope: 'worker' },
  ],
  storageState: ({ ownerState }, use) => use(ownerState),
  browserErrors: [
    async ({ page }, use) => {
      const errors = watchBrowserErrors(page);
      await use(errors);
      expect(errors, 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/** The owner's storage state after signing in through the API (set-up: the journeys that test signing in use the form). */
/** The owner signed in through the API at the worker's project's base URL: the `ownerState` of a worker. */
export async function ownerStorageState(request: APIRequest, workerInfo: WorkerInfo): Promise<StorageState> {
  const baseURL = workerInfo.project.use.baseURL;
  if (!baseURL) throw new Error('playwright.config.ts sets use.baseURL');
  const state = await signInThroughApi(request, baseURL);
  // The owner chose the markdown editor before (the console opens pages in the visual one): the journeys of other
  // features type markdown; those of the visual editor choose it, and others' browsers start from the default.
  const preference = { name: 'docspace.editor-mode', value: 'markdown' };
  return { ...state, origins: [{ origin: new URL(baseURL).origin, localStorage: [preference] }] };
}

export async function signInThroughApi(
  request: APIRequest,
  baseURL: string,
  { email, password } = OWNER,
): Promise<StorageState> {
  const api = await request.newContext({ baseURL, storageState: SIGNED_OUT });
  try {
    const response = await api.post('/v1/auth/login', { data: { email, password } });
    expect(response.ok(), `signing in answered ${response.status()}: ${await response.text()}`).toBe(true);
    return await api.storageState();
  } finally {
    await api.dispose();
  }
}

/** Someone else's browser: a context of its own, signed out (see `test`). */
export function newBrowser(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ storageState: SIGNED_OUT, ...options });
}

/** An e-mail address nobody else has, even in a journey running at the same time in another worker. */
export function uniqueEmail(name: string, domain = 'example.com'): string {
  return `${name.toLowerCase().replace(/\s+/g, '.')}-${Date.now()}-${randomBytes(3).toString('hex')}@${domain}`;
}

/** Collects the page's errors as they happen (see `test`): the array fills while the page lives. */
export function watchBrowserErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(`console.error: ${message.text()}`);
    }
  });
  return errors;
}

/** The journeys' mailbox (e2e/mail-sink.ts, started by playwright.config.ts two ports after the server's). */
export const MAIL_SINK_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3123) + 2}`;

export interface SentMail {
  messageId: string;
  subject: string;
  text: string;
  html?: string;
  to: string[];
}

/** Waits until a message to `to` whose subject is `subject` arrives in the journeys' mailbox, and answers the newest. */
export async function waitForMail(to: string, subject: string | RegExp, count = 1): Promise<SentMail> {
  let found: SentMail[] = [];
  await expect
    .poll(
      async () => {
        const response = await fetch(`${MAIL_SINK_URL}/messages?to=${encodeURIComponent(to)}`);
        const all = (await response.json()) as SentMail[];
        found = all.filter((m) => (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject)));
        return found.length;
      },
      { message: `mail "${String(subject)}" to ${to}`, timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return found[found.length - 1]!;
}

/** The owner account the e2e server bootstraps (ADMIN_EMAIL / ADMIN_PASSWORD in playwright.config.ts). */
export const OWNER = { email: 'owner@example.com', password: 'correct-horse-battery' };

/** Signs in through the sign-in form, in a browser signed out (journeys that test signing in; the rest start signed in). */
export async function signIn(page: Page, { email, password } = OWNER): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/o\/[^/]+$/);
}

/** Someone else, in their own browser: signs up with a fresh address (of `domain`), and lands on their welcome page. */
export async function newPerson(
  browser: Browser,
  name: string,
  domain = 'example.com',
): Promise<{ context: BrowserContext; page: Page; email: string; password: string }> {
  const context = await newBrowser(browser);
  const page = await context.newPage();
  const email = uniqueEmail(name, domain);
  const password = 'long-enough-password';
  await page.goto('/signup');
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('button', { name: new RegExp(`^Account: ${name}`) })).toBeVisible();
  // They read their mail: the address is confirmed by the link sent to it (followed from outside the browser).
  await confirmAddress(email);
  return { context, page, email, password };
}

/** Follows the link confirming `email` that sign-up mailed (from the journeys' mailbox). */
export async function confirmAddress(email: string): Promise<void> {
  const mail = await waitForMail(email, 'Confirm your e-mail address');
  const secret = /\/verify-email#(\S+)/.exec(mail.text)?.[1];
  expect(secret, mail.text).toBeTruthy();
  const baseURL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3123)}`;
  const response = await fetch(`${baseURL}/v1/auth/verify-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: secret }),
  });
  expect(response.status, await response.text()).toBe(200);
}

/** Opens one tab of the organization's people and settings area: from the sidebar, then its tab if need be. */
export async function openSettings(
  page: Page,
  entry: 'Members' | 'Teams' | 'Settings',
  tab?: 'General' | 'Invite links' | 'E-mail domains' | 'Single sign-on' | 'Translations',
): Promise<void> {
  await page
    .getByRole('navigation', { name: /sections$/ })
    .getByRole('link', { name: entry })
    .click();
  if (tab) {
    await page.getByRole('navigation', { name: 'Organization settings' }).getByRole('link', { name: tab }).click();
  }
}

/**
 * A fresh organization per journey keeps journeys independent of each other's content (and lets them run at the
 * same time). Set-up, so through the API; answers its id.
 */
export async function newOrganization(page: Page, title: string): Promise<string> {
  return ((await callApi(page, 'POST', '/orgs', { title })) as { id: string }).id;
}

/** A space of the organization (at its root, or inside the collection `parent`), made through the API; answers its id. */
export async function newSpace(page: Page, organizationId: string, title: string, parent?: string): Promise<string> {
  const space = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, { title, ...(parent ? { parent } : {}) });
  return space.id as string;
}

/** Opens the organization's home: its content. */
export async function openOrganization(page: Page, organizationId: string): Promise<void> {
  await page.goto(`/o/${organizationId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
}

/** A fresh organization with one space, both made through the API, and the space open (what most journeys start from). */
export async function openNewSpace(
  page: Page,
  organizationTitle: string,
  spaceTitle: string,
): Promise<{ organizationId: string; spaceId: string }> {
  const organizationId = await newOrganization(page, organizationTitle);
  const spaceId = await newSpace(page, organizationId, spaceTitle);
  await page.goto(`/o/${organizationId}/spaces/${spaceId}`);
  await expect(page.getByRole('heading', { level: 1, name: spaceTitle })).toBeVisible();
  return { organizationId, spaceId };
}

/** Creates an organization from the console's dialog (from a page of the console); answers its id. */
export async function createOrganization(page: Page, title: string): Promise<string> {
  await page.getByRole('button', { name: 'Switch organization' }).click();
  await page.getByRole('menuitem', { name: 'New organization…' }).click();
  const dialog = page.getByRole('dialog', { name: 'New organization' });
  await dialog.getByLabel('Name').fill(title);
  await dialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Switch organization' })).toContainText(title);
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  const match = /\/o\/([^/]+)$/.exec(new URL(page.url()).pathname);
  if (!match?.[1]) throw new Error(`Not on an organization page: ${page.url()}`);
  return match[1];
}

/** The content tree of the page (organization home or a collection). */
export function tree(page: Page) {
  return page.getByRole('list', { name: 'Collections and spaces' });
}

/** Creates a space at the root of the organization from the dialog, on the organization's home. */
export async function createSpaceAtRoot(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: 'New space' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New space' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByRole('button', { name: 'Create space' }).click();
  await expect(dialog).toBeHidden();
  await expect(tree(page).getByRole('link', { name: title })).toBeVisible();
}

/** Opens a space from the organization's tree; answers its id (from the URL). */
export async function openSpace(page: Page, title: string): Promise<string> {
  await tree(page).getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const match = /\/spaces\/([^/]+)$/.exec(new URL(page.url()).pathname);
  if (!match?.[1]) throw new Error(`Not on a space page: ${page.url()}`);
  return match[1];
}

/**
 * Calls the API as the signed-in browser (its session cookie, and the CSRF header mutations need): for setting up
 * what a journey starts from, not for what it checks.
 */
export async function callApi(page: Page, method: string, path: string, data?: unknown): Promise<any> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'ds_csrf')?.value;
  const response = await page.request.fetch(`/v1${path}`, {
    method,
    data,
    headers: csrf ? { 'x-csrf-token': csrf } : {},
  });
  expect(response.ok(), `${method} ${path} answered ${response.status()}: ${await response.text()}`).toBe(true);
  const body = await response.text();
  return body ? JSON.parse(body) : undefined;
}

/** A page of a change request as the server has it now (`?format=markdown`: its `markdown`, title, emoji…). */
export async function changeRequestPage(page: Page, spaceId: string, changeRequestId: string, pageId: string) {
  return callApi(
    page,
    'GET',
    `/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}?format=markdown`,
  );
}

/** Gives a space a page through a change request merged by the API; answers the page's id. */
export async function seedPage(page: Page, spaceId: string, title: string, markdown: string): Promise<string> {
  const changeRequest = await callApi(page, 'POST', `/spaces/${spaceId}/change-requests`, { subject: 'Seed' });
  const edited = await callApi(
    page,
    'POST',
    `/spaces/${spaceId}/change-requests/${changeRequest.id}/content?compat=false`,
    {
      changes: [{ operation: 'insert_page', title, document: { markdown } }],
    },
  );
  await callApi(page, 'POST', `/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`);
  return edited.changes[0].page.id as string;
}

/** A change request giving a page new content, made through the API; answers its number. */
export async function changePage(page: Page, spaceId: string, pageId: string, markdown: string): Promise<number> {
  const changeRequest = await callApi(page, 'POST', `/spaces/${spaceId}/change-requests`, { subject: 'Rewrite' });
  await editPage(page, spaceId, changeRequest.number, pageId, markdown);
  return changeRequest.number as number;
}

/** Gives a page of an open change request (by its number) new content, through the API. */
export async function editPage(page: Page, spaceId: string, number: number, pageId: string, markdown: string) {
  await callApi(page, 'POST', `/spaces/${spaceId}/change-requests/${number}/content?compat=false`, {
    changes: [{ operation: 'update_page', page: pageId, document: { markdown } }],
  });
}

/**
 * The WCAG 2.1 A/AA violations axe finds in what is on screen (or in `within`, a CSS selector; `impacts`: only
 * those of these impacts; `rules`: only these rules of axe), each described for a failure message: the rule, its
 * impact, what it asks, then every element it concerns with axe's summary of what to fix.
 */
export async function accessibilityViolations(
  page: Page,
  {
    within,
    impacts,
    rules,
    skip,
  }: { within?: string; impacts?: readonly string[]; rules?: readonly string[]; skip?: readonly string[] } = {},
): Promise<string[]> {
  // Only violations are read: axe need not describe every element that passed (it serialized thousands of them
  // per page, to be thrown away).
  let builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  builder = rules ? builder.withRules([...rules]) : builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (skip) builder = builder.disableRules([...skip]);
  if (within) builder = builder.include(within);
  // A page without frames is checked by one axe.run in the page. A page with frames (the site preview, an origin of
  // its own) needs axe's partial runs, which reach frames of any origin, and whose results are put together in a
  // blank page opened for the purpose: a second or so for every check, spared where there are no frames.
  builder = builder.setLegacyMode(page.frames().length === 1);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => !impacts || impacts.includes(v.impact ?? ''))
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n` +
        v.nodes
          .map((n) => `  ${n.target.join(' ')} ${n.html}\n    ${(n.failureSummary ?? '').replace(/\n/g, '\n    ')}`)
          .join('\n'),
    );
}

/** No WCAG 2.1 A/AA violations that axe finds in what is on screen (or in `within`, a CSS selector). */
export async function expectAccessible(page: Page, within?: string): Promise<void> {
  expect(await accessibilityViolations(page, { within }), 'accessibility violations (axe)').toEqual([]);
}

/** A new account, signed up in a browser of its own, that joins the organization with `role`. */
export async function newMember(browser: Browser, owner: Page, organizationId: string, name: string, role: string) {
  const invite = await callApi(owner, 'POST', `/orgs/${organizationId}/link-invites`, { role });
  const context = await newBrowser(browser);
  const page = await context.newPage();
  // Signed up through the API, which signs the browser in (the sign-up form has journeys of its own: auth.spec.ts).
  const email = uniqueEmail(name.split(' ')[0]!);
  const signedUp = await context.request.post('/v1/auth/signup', {
    data: { email, password: 'many-threads-to-pull', displayName: name },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(201);
  await callApi(page, 'POST', `/orgs/${organizationId}/invites/${invite.id}`);
  return { context, page };
}
