import { SignJWT } from 'jose';
import type { Page } from '@playwright/test';
import {
  accessibilityViolations,
  callApi,
  expect,
  newOrganization,
  newSpace,
  openOrganization,
  seedPage,
  test,
} from './support';

/** From the organization's home (made through the API, like its spaces), to its sites. */
async function openSites(page: Page, organizationId: string, organizationTitle: string) {
  await openOrganization(page, organizationId);
  await page
    .getByRole('navigation', { name: `${organizationTitle} sections` })
    .getByRole('link', { name: 'Sites' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
}

/** Creates a site from the list's dialog; ends on its structure. */
async function createSite(
  page: Page,
  title: string,
  { visibility, spaces = [] }: { visibility?: string; spaces?: string[] } = {},
) {
  await page
    .getByRole('button', { name: /New site|Create a site/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'New site' });
  await dialog.getByLabel('Title').fill(title);
  if (visibility) await dialog.getByLabel('Visibility').selectOption({ label: visibility });
  for (const space of spaces) await dialog.getByRole('checkbox', { name: space }).check();
  await dialog.getByRole('button', { name: 'Create site' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page).toHaveURL(/\/sites\/[^/]+\/structure$/);
}

function structure(page: Page) {
  return page.getByRole('list', { name: 'Site structure' });
}

/** The titles of the top-level rows of the structure, in order. */
async function topTitles(page: Page): Promise<string[]> {
  return structure(page).locator(':scope > li > .site-tree-row .site-tree-title').allInnerTexts();
}

async function addSection(page: Page, space: string) {
  await page.getByRole('button', { name: 'Add section' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add section' });
  await dialog.getByLabel('Space').selectOption({ label: space });
  await dialog.getByRole('button', { name: 'Add section' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: `Actions for section ${space}` })).toBeVisible();
}

/**
 * Publishes from the header. The spaces here are private (the default), so on a site anyone can read the console
 * first names them and asks: `privateSpaces` are the names it must list.
 */
async function publish(page: Page, privateSpaces: string[]): Promise<string> {
  await page.getByRole('button', { name: 'Publish' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Publish private spaces?' });
  for (const name of privateSpaces) await expect(confirm).toContainText(name);
  await expect(confirm).toContainText('anyone with its address reads');
  await confirm.getByRole('button', { name: 'Publish anyway' }).click();
  await expect(confirm).toBeHidden();
  const live = page.getByRole('link', { name: /Open live site/ });
  await expect(live).toBeVisible();
  const href = await live.getAttribute('href');
  if (!href) throw new Error('The live site link has no address');
  return href;
}

test('build a site with two sections, reorder them, publish it and read its pages on the live site', async ({
  page,
}) => {
  const organizationId = await newOrganization(page, 'Sites journey');
  const guide = await newSpace(page, organizationId, 'Guide');
  const reference = await newSpace(page, organizationId, 'API reference');
  await seedPage(page, guide, 'Getting started', 'Install the tool, then [configure it](configuration).');
  await seedPage(page, guide, 'Configuration', 'Every **option** of the tool.');
  await seedPage(page, reference, 'Endpoints', 'The list of endpoints.');

  await openSites(page, organizationId, 'Sites journey');
  await expect(page.getByRole('heading', { name: 'No sites yet' })).toBeVisible();
  await createSite(page, 'Product docs');
  await expect(page.getByRole('heading', { name: 'This site shows nothing yet' })).toBeVisible();

  // Two sections, each from a space.
  await addSection(page, 'Guide');
  await addSection(page, 'API reference');
  await expect.poll(() => topTitles(page)).toEqual(['Guide', 'API reference']);

  // Rename the second one and give it a shorter path; the limit shows while typing.
  await page.getByRole('button', { name: 'Actions for section API reference' }).click();
  await page.getByRole('menuitem', { name: 'Edit…' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit section “API reference”' });
  await edit.getByLabel('Title').fill('Reference');
  await expect(edit.getByText('9/128')).toBeVisible();
  await edit.getByLabel('Path').fill('has spaces');
  await expect(edit.getByText('Letters, digits, "-", "_" and ".", starting with a letter or digit')).toBeVisible();
  await edit.getByLabel('Path').fill('reference');
  await edit.getByRole('button', { name: 'Save section' }).click();
  await expect(edit).toBeHidden();
  await expect(structure(page).getByText('/reference · 1 space')).toBeVisible();

  // Reorder from the keyboard: the handle keeps focus as its row moves.
  const handle = page.getByRole('button', { name: /^Reorder section Reference/ });
  await handle.focus();
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => topTitles(page)).toEqual(['Reference', 'Guide']);
  await expect(page.getByRole('button', { name: /^Reorder section Reference, position 1 of 2/ })).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: '“Reference” moved to position 1 of 2.' })).toBeAttached();

  // And back by dragging Guide above Reference.
  await page
    .getByRole('button', { name: /^Reorder section Guide/ })
    .dragTo(structure(page).locator('[data-row="site-section:' + (await sectionId(page, 'Reference')) + '"]'), {
      targetPosition: { x: 40, y: 4 },
    });
  await expect.poll(() => topTitles(page)).toEqual(['Guide', 'Reference']);

  // The order is the server's: it survives a reload, as does the URL.
  await page.reload();
  await expect.poll(() => topTitles(page)).toEqual(['Guide', 'Reference']);

  const live = await publish(page, ['Guide', 'API reference']);

  // The space says, on its own page, that the site makes it public.
  await page.goto(`/o/${organizationId}/spaces/${guide}`);
  await expect(page.getByRole('note').filter({ hasText: 'This space is private here' })).toContainText(
    'its pages are public on Product docs: anyone can read them there.',
  );
  await page.goBack();

  // Adding a private space to the published site says what that does, before anything is added.
  await page.getByRole('button', { name: 'Add section' }).click();
  const adding = page.getByRole('dialog', { name: 'Add section' });
  await adding.getByLabel('Space').selectOption({ label: 'API reference' });
  await expect(adding.getByRole('note')).toContainText('“API reference” is private in the organization');
  await page.keyboard.press('Escape');
  await expect(adding).toBeHidden();
  await expect(page.getByText('Published', { exact: true })).toBeVisible();

  await page.goto(live);
  const sections = page.getByRole('navigation', { name: 'Sections', exact: true });
  await expect(sections.getByRole('link', { name: 'Guide' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Pages', exact: true })
    .getByRole('link', { name: 'Configuration' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Configuration' })).toBeVisible();
  await expect(page.getByText('Every option of the tool.')).toBeVisible();
  await sections.getByRole('link', { name: 'Reference' }).click();
  await expect(page).toHaveURL(/\/reference(\/|$)/);
  await expect(page.getByRole('heading', { level: 1, name: 'Endpoints' })).toBeVisible();
});

/** The id of a section, from its row in the structure. */
async function sectionId(page: Page, title: string): Promise<string> {
  const row = structure(page)
    .locator('.site-tree-row')
    .filter({ has: page.getByRole('button', { name: `Actions for section ${title}`, exact: true }) });
  const key = await row.getAttribute('data-row');
  return key!.replace('site-section:', '');
}

test('a share link opens a share-link site until it is deactivated', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const organizationId = await newOrganization(page, 'Share journey');
  const notes = await newSpace(page, organizationId, 'Release notes');
  await seedPage(page, notes, 'Version 2', 'What is new in version 2.');

  await openSites(page, organizationId, 'Share journey');
  await createSite(page, 'Private preview', { visibility: 'Share links', spaces: ['Release notes'] });
  await expect(structure(page).getByText('Release notes')).toBeVisible();
  await page.getByRole('button', { name: 'Publish' }).click();

  // Its manager opens it from the console with a preview grant, in a new tab.
  const open = page.getByRole('button', { name: /Open live site/ });
  const popup = page.waitForEvent('popup');
  await open.click();
  const previewTab = await popup;
  await expect(previewTab.getByRole('heading', { level: 1, name: 'Version 2' })).toBeVisible();
  const opened = new URL(previewTab.url());
  expect(opened.searchParams.has('jwt_token')).toBe(true);
  opened.search = '';
  const live = opened.toString();
  await previewTab.close();

  // Without a share link (or the grant), the site is not there: asked with no cookie.
  expect((await fetch(live)).status).toBe(404);

  await page.getByRole('navigation', { name: 'Site sections' }).getByRole('link', { name: 'Share links' }).click();
  await expect(page).toHaveURL(/\/share-links$/);
  await expect(page.getByRole('heading', { name: 'No share links yet' })).toBeVisible();
  await page.getByRole('button', { name: 'New share link' }).click();
  const create = page.getByRole('dialog', { name: 'New share link' });
  await create.getByLabel('Name').fill('Beta readers');
  await create.getByRole('button', { name: 'Create link' }).click();
  await expect(create).toBeHidden();

  const links = page.getByRole('list', { name: 'Share links' });
  const link = links.getByRole('listitem').filter({ hasText: 'Beta readers' });
  await expect(link.getByText('Active', { exact: true })).toBeVisible();
  const url = await link.getByRole('textbox', { name: 'Address of Beta readers' }).inputValue();
  expect(url).toContain('/~share/');
  await link.getByRole('button', { name: 'Copy link for Beta readers' }).click();
  await expect(link.getByText('Copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  // The link opens the site.
  const reader = await context.newPage();
  await reader.goto(url);
  await expect(reader.getByRole('heading', { level: 1, name: 'Version 2' })).toBeVisible();

  // Deactivated, it opens nothing: at once.
  await link.getByRole('button', { name: 'Deactivate' }).click();
  await expect(link.getByText('Inactive', { exact: true })).toBeVisible();
  const refused = await reader.goto(url);
  expect(refused?.status()).toBe(404);
  await expect(reader.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible();

  // Active again, then deleted after confirming.
  await link.getByRole('button', { name: 'Activate' }).click();
  await expect(link.getByText('Active', { exact: true })).toBeVisible();
  expect((await reader.goto(url))?.status()).toBe(200);
  await link.getByRole('button', { name: 'Actions for share link Beta readers' }).click();
  await page.getByRole('menuitem', { name: 'Rename…' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename share link' });
  await rename.getByLabel('Name').fill('Early readers');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename).toBeHidden();
  const renamed = links.getByRole('listitem').filter({ hasText: 'Early readers' });
  await expect(renamed.getByRole('textbox', { name: 'Address of Early readers' })).toHaveValue(url);
  await renamed.getByRole('button', { name: 'Actions for share link Early readers' }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete share link?' });
  await confirm.getByRole('button', { name: 'Delete link' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('heading', { name: 'No share links yet' })).toBeVisible();
  expect((await reader.goto(url))?.status()).toBe(404);
  await reader.close();
});

test('a redirect keeps an old address of the site working until it is deleted', async ({ page, context }) => {
  const organizationId = await newOrganization(page, 'Redirect journey');
  const notes = await newSpace(page, organizationId, 'Release notes');
  await seedPage(page, notes, 'Version 1', 'The first release.');
  await seedPage(page, notes, 'Version 2', 'What is new in version 2.');
  await openSites(page, organizationId, 'Redirect journey');
  await createSite(page, 'Notes', { visibility: 'Public', spaces: ['Release notes'] });
  await page.getByRole('button', { name: 'Publish' }).click();
  await page
    .getByRole('alertdialog', { name: 'Publish private spaces?' })
    .getByRole('button', { name: 'Publish anyway' })
    .click();
  const published = async () => (await callApi(page, 'GET', `/orgs/${organizationId}/sites`)).items[0].urls.published;
  await expect.poll(published).toEqual(expect.any(String));
  const live = (await published()) as string;
  const reader = await context.newPage();
  expect((await reader.goto(`${live}/old-notes`))?.status()).toBe(404);

  await page.getByRole('navigation', { name: 'Site sections' }).getByRole('link', { name: 'Redirects' }).click();
  await expect(page).toHaveURL(/\/redirects$/);
  await expect(page.getByRole('heading', { name: 'No redirects yet' })).toBeVisible();
  await page.getByRole('button', { name: 'New redirect' }).click();
  const create = page.getByRole('dialog', { name: 'New redirect' });
  // A path that is not one is refused in the form, naming what is wrong.
  await create.getByLabel('Old address').fill('old notes');
  await expect(create.getByText(/A path such as \/old\/page/)).toBeVisible();
  await create.getByLabel('Old address').fill('/old-notes');
  await expect(create.getByLabel('Leads to')).toHaveValue(/.+/);
  await create.getByLabel('Page').selectOption({ label: 'Version 2' });
  await create.getByRole('button', { name: 'Add redirect' }).click();
  await expect(create).toBeHidden();
  const item = page.getByRole('list', { name: 'Redirects' }).getByRole('listitem').filter({ hasText: '/old-notes' });
  await expect(item).toContainText('Release notes › Version 2');
  expect(await accessibilityViolations(page)).toEqual([]);

  // The old address leads to the page.
  await reader.goto(`${live}/old-notes`);
  await expect(reader.getByRole('heading', { level: 1, name: 'Version 2' })).toBeVisible();

  // The same source twice is refused with a clear message.
  await page.getByRole('button', { name: 'New redirect' }).click();
  await create.getByLabel('Old address').fill('/old-notes');
  await create.getByRole('button', { name: 'Add redirect' }).click();
  await expect(create.getByText(/exists already/)).toBeVisible();
  await create.getByRole('button', { name: 'Cancel' }).click();

  // Deleted after confirming: the old address answers "not found" again.
  await item.getByRole('button', { name: 'Delete redirect from /old-notes' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete redirect?' });
  await confirm.getByRole('button', { name: 'Delete redirect' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('heading', { name: 'No redirects yet' })).toBeVisible();
  expect((await reader.goto(`${live}/old-notes`))?.status()).toBe(404);
  await reader.close();
});

test('a condition hides a section from visitors whose claims do not match', async ({ page }) => {
  const organizationId = await newOrganization(page, 'Adaptive journey');
  const docs = await newSpace(page, organizationId, 'Docs');
  const beta = await newSpace(page, organizationId, 'Beta features');
  await seedPage(page, docs, 'Welcome', 'For everyone.');
  await seedPage(page, beta, 'Early access', 'Only for beta testers.');
  // The site and its two sections through the API: this journey is about the condition.
  const site = await callApi(page, 'POST', `/orgs/${organizationId}/sites`, { title: 'Adaptive docs' });
  await callApi(page, 'POST', `/orgs/${organizationId}/sites/${site.id}/sections`, { spaceId: docs });
  await callApi(page, 'POST', `/orgs/${organizationId}/sites/${site.id}/sections`, { spaceId: beta, title: 'Beta' });

  // Straight to the site's settings by URL.
  await page.goto(`/o/${organizationId}/sites/${site.id}/settings`);
  const settings = page.getByRole('form', { name: 'Site settings' });
  await settings.getByLabel('Adaptive content').check();
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Site settings saved')).toBeVisible();

  // The claims schema: JSON errors first, then the server's reasons, then a valid one.
  await page.getByRole('navigation', { name: 'Site sections' }).getByRole('link', { name: 'Adaptive content' }).click();
  const schema = page.getByRole('form', { name: 'Adaptive schema' });
  const text = schema.getByLabel('Schema (JSON Schema draft-07)');
  await text.fill('{ "type": ');
  await expect(schema.getByText(/^Not valid JSON/)).toBeVisible();
  await text.fill(
    JSON.stringify({ type: 'object', properties: { beta: { type: 'string' } }, additionalProperties: false }),
  );
  await schema.getByRole('button', { name: 'Save schema' }).click();
  await expect(schema.locator('.field-error')).toContainText('properties.beta');
  await schema.getByRole('button', { name: 'Use the example' }).click();
  await schema.getByRole('button', { name: 'Save schema' }).click();
  await expect(page.getByText('Adaptive schema saved')).toBeVisible();
  const templates = page.getByRole('list', { name: 'Template conditions' });
  await expect(templates.getByText('visitor.claims.beta === true')).toBeVisible();

  // The condition on the Beta section: a malformed one is refused beside the field.
  await page.getByRole('navigation', { name: 'Site sections' }).getByRole('link', { name: 'Structure' }).click();
  await page.getByRole('button', { name: 'Actions for section Beta' }).click();
  await page.getByRole('menuitem', { name: 'Edit…' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit section “Beta”' });
  await edit.getByRole('textbox', { name: 'Condition' }).fill('visitor.claims.beta ===');
  await edit.getByRole('button', { name: 'Save section' }).click();
  await expect(edit.locator('.field-error')).toContainText('Invalid condition');
  await edit.getByRole('button', { name: /^Use condition visitor\.claims\.beta === true/ }).click();
  await expect(edit.getByRole('textbox', { name: 'Condition' })).toHaveValue('visitor.claims.beta === true');
  await edit.getByRole('button', { name: 'Save section' }).click();
  await expect(edit).toBeHidden();
  await expect(
    structure(page).locator('.site-tree-row').filter({ hasText: 'Beta' }).getByText('Condition'),
  ).toBeVisible();

  const live = await publish(page, ['Docs', 'Beta features']);

  // The signing key, from the settings.
  await page.getByRole('navigation', { name: 'Site sections' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Show' }).click();
  const key = await page.getByLabel('Signing key').inputValue();
  expect(key.length).toBeGreaterThanOrEqual(32);
  const token = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(key));

  // No claims, or beta: false: only the Docs section, so no section tabs at all.
  await page.goto(live);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Beta' })).toHaveCount(0);
  await page.goto(`${live}?jwt_token=${await token({ beta: false })}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Beta' })).toHaveCount(0);
  await page.goto(`${live}/beta`);
  await expect(page.getByText('Only for beta testers.')).toHaveCount(0);

  // A visitor whose claims match sees it.
  await page.goto(`${live}?jwt_token=${await token({ beta: true })}`);
  const sections = page.getByRole('navigation', { name: 'Sections', exact: true });
  await sections.getByRole('link', { name: 'Beta' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Early access' })).toBeVisible();
  await expect(page.getByText('Only for beta testers.')).toBeVisible();
});

test('the list filters by title, status and space in the URL; the structure takes groups, defaults and removals', async ({
  page,
}) => {
  const organizationId = await newOrganization(page, 'Structure journey');
  const guide = await newSpace(page, organizationId, 'Guide');
  const api = await newSpace(page, organizationId, 'API');
  await newSpace(page, organizationId, 'Changelog');
  await callApi(page, 'POST', `/orgs/${organizationId}/sites`, { title: 'Alpha docs', spaces: [guide] });
  const beta = await callApi(page, 'POST', `/orgs/${organizationId}/sites`, { title: 'Beta portal', spaces: [api] });
  await callApi(page, 'POST', `/orgs/${organizationId}/sites/${beta.id}/publish`);

  await openSites(page, organizationId, 'Structure journey');
  const sites = page.getByRole('list', { name: 'Sites' });
  await expect(sites.getByRole('link')).toHaveText(['Alpha docs', 'Beta portal', /Live site/]);
  const filters = page.getByRole('search', { name: 'Filter sites' });
  await filters.getByLabel('Title').fill('beta');
  await expect(page).toHaveURL(/title=beta/);
  await expect(page.getByText('1 site match')).toBeVisible();
  await page.reload();
  await expect(filters.getByLabel('Title')).toHaveValue('beta');
  await filters.getByLabel('Status').selectOption({ label: 'Not published' });
  await expect(page.getByRole('heading', { name: 'No sites match' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear the filters' }).click();
  await expect(filters.getByLabel('Title')).toHaveValue('');
  await filters.getByLabel('Space', { exact: true }).selectOption({ label: 'Guide' });
  await expect(page).toHaveURL(/space=/);
  await expect(sites.getByRole('link', { name: 'Alpha docs' })).toBeVisible();
  await expect(sites.getByRole('link', { name: 'Beta portal' })).toHaveCount(0);
  await sites.getByRole('link', { name: 'Alpha docs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Alpha docs' })).toBeVisible();

  // A site without sections: its spaces at the root; the default moves.
  await page.getByRole('button', { name: 'Add space' }).click();
  const add = page.getByRole('dialog', { name: 'Add space' });
  await add.getByLabel('Space').selectOption({ label: 'Changelog' });
  await add.getByRole('button', { name: 'Add space' }).click();
  await expect(add).toBeHidden();
  await expect.poll(() => topTitles(page)).toEqual(['Guide', 'Changelog']);
  const row = (title: string) =>
    structure(page)
      .locator('.site-tree-row')
      .filter({ has: page.locator('.site-tree-title', { hasText: title }) });
  await expect(row('Guide').getByText('Default')).toBeVisible();
  await page.getByRole('button', { name: 'Actions for space Changelog' }).click();
  await page.getByRole('menuitem', { name: 'Set as default' }).click();
  await expect(row('Changelog').getByText('Default')).toBeVisible();
  await expect(row('Guide').getByText('Default')).toHaveCount(0);

  // The first section wraps the spaces that were at the root (named after the default one).
  await addSection(page, 'API');
  await expect.poll(() => topTitles(page)).toEqual(['Changelog', 'API']);
  await expect(
    structure(page).getByRole('list', { name: 'Inside section Changelog' }).locator('.site-tree-title'),
  ).toHaveText(['Guide', 'Changelog']);

  // A group around the API section.
  await page.getByRole('button', { name: 'New group' }).click();
  const group = page.getByRole('dialog', { name: 'New section group' });
  await group.getByLabel('Title').fill('More');
  await group.getByRole('checkbox', { name: 'API' }).check();
  await group.getByRole('button', { name: 'Create group' }).click();
  await expect(group).toBeHidden();
  await expect.poll(() => topTitles(page)).toEqual(['Changelog', 'More']);
  await expect(structure(page).getByRole('list', { name: 'Inside group More' }).getByText('API').first()).toBeVisible();

  // The default section, then a removal after confirming.
  await page.getByRole('button', { name: 'Actions for section API' }).click();
  await page.getByRole('menuitem', { name: 'Set as default section' }).click();
  await expect(row('API').first().getByText('Default').first()).toBeVisible();
  await page.getByRole('button', { name: 'Actions for space Guide' }).click();
  await page.getByRole('menuitem', { name: 'Remove…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove space from the site?' });
  await confirm.getByRole('button', { name: 'Remove space' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('button', { name: 'Actions for space Guide' })).toHaveCount(0);
  await page.reload();
  await expect.poll(() => topTitles(page)).toEqual(['Changelog', 'More']);
  await expect(page.getByRole('button', { name: 'Actions for space Guide' })).toHaveCount(0);

  // Deleting the site, after confirming, leads back to the list.
  await page.getByRole('button', { name: 'Actions for site Alpha docs' }).click();
  await page.getByRole('menuitem', { name: 'Delete site…' }).click();
  const remove = page.getByRole('alertdialog', { name: 'Delete site?' });
  await remove.getByRole('button', { name: 'Delete site' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await expect(sites.getByRole('link', { name: 'Beta portal', exact: true })).toBeVisible();
  await expect(sites.getByRole('link', { name: 'Alpha docs' })).toHaveCount(0);
});
