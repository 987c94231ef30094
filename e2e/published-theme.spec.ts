import type { Page } from '@playwright/test';
import { callApi, expect, expectAccessible, newOrganization, seedPage, test } from './support';

const INTRODUCTION = [
  'Welcome to the guide.',
  '## Install',
  '```bash\nnpm install --save some-really-long-package-name another-package-with-a-long-name yet-another-one\n```',
  '## Configure',
  '| Option | Default | What it does |\n|---|---|---|\n| `port` | 3000 | The port the server listens on, a long description that goes on |',
  '> A quote worth reading.',
  '{% hint style="warning" %}\nBack up first.\n{% endhint %}',
  '> [!NOTE]\n> Works offline too.',
].join('\n\n');

/** A public site of `spaceId` titled `title`, published: the site and its address. */
async function publicSite(page: Page, organizationId: string, title: string, spaceId: string) {
  const site = await callApi(page, 'POST', `/orgs/${organizationId}/sites`, {
    title,
    visibility: 'public',
    spaces: [spaceId],
  });
  const live = (await callApi(page, 'POST', `/orgs/${organizationId}/sites/${site.id}/publish`)).urls
    .published as string;
  return { site, live };
}

test('a published site reads well on a desktop and a phone: navigation, on this page, previous and next, dark mode, no sideways scroll', async ({
  page,
}) => {
  const organizationId = await newOrganization(page, 'Theme journey');
  const space = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, { title: 'Guide' });
  await seedPage(page, space.id, 'Introduction', INTRODUCTION);
  await seedPage(page, space.id, 'Usage', 'How to use it.');
  const { live } = await publicSite(page, organizationId, 'Acme Docs', space.id);

  await page.goto(live);
  const article = page.getByRole('article');
  await expect(article.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();
  const onThisPage = page.getByRole('navigation', { name: 'On this page' });
  await expect(onThisPage.getByRole('link')).toHaveText(['Install', 'Configure']);
  await expect(
    page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link', { name: 'Introduction' }),
  ).toHaveAttribute('aria-current', 'page');
  // Code is highlighted on the server, labelled with its language.
  await expect(article.locator('.code-block .code-lang')).toHaveText('bash');
  await expect(article.locator('pre.shiki span[style*="--shiki-dark"]').first()).toBeVisible();

  // Hints and alerts are callouts; each heading links to itself.
  await expect(article.getByRole('note').filter({ hasText: 'Warning' })).toContainText('Back up first.');
  await expect(article.getByRole('note').filter({ hasText: 'Note' })).toContainText('Works offline too.');
  await article.getByRole('link', { name: 'Link to the section Configure' }).click();
  await expect(page).toHaveURL(/#configure$/);
  // A link naming a section as it was called before (or misspelt) lands on the closest one.
  await page.goto(`${new URL(live).pathname}#configuring`);
  await expect(page).toHaveURL(/#configure$/);
  await expect(article.getByRole('heading', { name: 'Configure' })).toBeInViewport();
  // Written with capitals, as GitHub takes it: the id in lower case.
  await page.goto(`${new URL(live).pathname}#Install`);
  await expect(page).toHaveURL(/#install$/);
  await expectAccessible(page);

  // Next page, and back.
  await page
    .getByRole('navigation', { name: 'Previous and next pages' })
    .getByRole('link', { name: /Next\s*Usage/ })
    .click();
  await expect(article.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Previous and next pages' })
    .getByRole('link', { name: /Previous\s*Introduction/ })
    .click();
  await expect(article.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();

  // A phone: the navigation hides behind the menu button, nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  const pages = page.getByRole('navigation', { name: 'Pages', exact: true });
  await expect(pages).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await page.getByText('Menu', { exact: true }).click();
  await expect(pages).toBeVisible();
  await pages.getByRole('link', { name: 'Usage' }).click();
  await expect(article.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  await expect(pages).toBeHidden();
  await expectAccessible(page);

  // Dark mode follows the system setting.
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background()).not.toBe(light);
  await expectAccessible(page);

  // A page that does not exist says so and leads back.
  await page.goto(`${live}/no-such-page`);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Acme Docs' }).click();
  await expect(article.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();
});

test('a reader of a two-section site: a section group menu, folding navigation, a remembered theme, copy and wrap code, search as you type', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const organizationId = await newOrganization(page, 'Reader journey');
  const guide = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, { title: 'Guide' });
  await seedPage(page, guide.id, 'Introduction', INTRODUCTION);
  const setupId = await seedPage(page, guide.id, 'Setup', 'Setting up the toolkit.');
  const nested = await callApi(page, 'POST', `/spaces/${guide.id}/change-requests`, { subject: 'Nested' });
  await callApi(page, 'POST', `/spaces/${guide.id}/change-requests/${nested.id}/content`, {
    changes: [
      {
        operation: 'insert_page',
        title: 'Proxies',
        into: setupId,
        document: { markdown: 'Behind a corporate proxy, set the variable.' },
      },
    ],
  });
  await callApi(page, 'POST', `/spaces/${guide.id}/change-requests/${nested.id}/merge`);
  const api = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, { title: 'API' });
  await seedPage(page, api.id, 'Endpoints', 'Every endpoint answers in JSON.');
  const cli = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, { title: 'CLI' });
  await seedPage(page, cli.id, 'Commands', 'The commands of the command line.');
  const site = await callApi(page, 'POST', `/orgs/${organizationId}/sites`, {
    title: 'Acme Docs',
    visibility: 'public',
  });
  const base = `/orgs/${organizationId}/sites/${site.id}`;
  await callApi(page, 'POST', `${base}/sections`, { spaceId: guide.id, title: 'Guide' });
  const apiSection = await callApi(page, 'POST', `${base}/sections`, { spaceId: api.id, title: 'API' });
  const cliSection = await callApi(page, 'POST', `${base}/sections`, { spaceId: cli.id, title: 'CLI' });
  await callApi(page, 'POST', `${base}/section-groups`, {
    title: 'Reference',
    sections: [apiSection.id, cliSection.id],
  });
  const live = (await callApi(page, 'POST', `${base}/publish`)).urls.published as string;

  await page.goto(live);
  const article = page.getByRole('article');
  await expect(article.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();

  // The section group is a menu in the header: it opens, lists its sections, and Escape closes it.
  const sections = page.getByRole('navigation', { name: 'Sections', exact: true });
  await sections.getByText('Reference', { exact: true }).click();
  await expect(sections.getByRole('link', { name: 'CLI' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sections.getByRole('link', { name: 'CLI' })).toBeHidden();
  await sections.getByText('Reference', { exact: true }).click();
  await sections.getByRole('link', { name: 'API' }).click();
  await expect(article.getByRole('heading', { level: 1, name: 'Endpoints' })).toBeVisible();
  // The group holding the current section says so; inside it, the section is the current page.
  await expect(sections.locator('li.group.current')).toContainText('Reference');
  await sections.getByText('Reference', { exact: true }).click();
  await expect(sections.getByRole('link', { name: 'API' })).toHaveAttribute('aria-current', 'page');
  await page.mouse.click(700, 400);
  await expect(sections.getByRole('link', { name: 'API' })).toBeHidden();
  await sections.getByRole('link', { name: 'Guide' }).click();

  // The navigation folds: Setup's pages are closed away from it, and open on the way to them.
  const pages = page.getByRole('navigation', { name: 'Pages', exact: true });
  await expect(pages.getByRole('link', { name: 'Proxies' })).toBeHidden();
  await pages.getByLabel('Setup: pages inside').click();
  await pages.getByRole('link', { name: 'Proxies' }).click();
  await expect(article.getByRole('heading', { level: 1, name: 'Proxies' })).toBeVisible();
  await expect(pages.getByRole('link', { name: 'Proxies' })).toHaveAttribute('aria-current', 'page');
  await expectAccessible(page);

  // The theme toggle: light, dark, back to the system's; the choice outlives a reload.
  await page.goto(live);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();
  const toggle = page.getByRole('button', { name: /^Theme: / });
  await expect(toggle).toHaveText('Theme: System');
  await toggle.click();
  await expect(toggle).toHaveText('Theme: Light');
  expect(await background()).toBe(light);
  await toggle.click();
  await expect(toggle).toHaveText('Theme: Dark');
  const dark = await background();
  expect(dark).not.toBe(light);
  await page.reload();
  await expect(page.getByRole('button', { name: /^Theme: / })).toHaveText('Theme: Dark');
  expect(await background()).toBe(dark);
  await expectAccessible(page);
  await page.getByRole('button', { name: /^Theme: / }).click();
  await expect(page.getByRole('button', { name: /^Theme: / })).toHaveText('Theme: System');
  expect(await background()).toBe(light);

  // Code: copy puts the block's text on the clipboard; wrap folds long lines inside the block.
  const block = article.locator('.code-block').first();
  await block.getByRole('button', { name: 'Copy code' }).click();
  await expect(block.getByRole('button', { name: 'Copied code' })).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'npm install --save some-really-long-package-name another-package-with-a-long-name yet-another-one',
  );
  const pre = block.locator('pre');
  const scrolls = () => pre.evaluate((e) => e.scrollWidth > e.clientWidth);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await scrolls()).toBe(true);
  await block.getByRole('button', { name: 'Wrap lines' }).click();
  await expect(block.getByRole('button', { name: 'Wrap lines' })).toHaveAttribute('aria-pressed', 'true');
  expect(await scrolls()).toBe(false);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await page.setViewportSize({ width: 1280, height: 800 });

  // A heading's # link copies the section's address.
  await article.getByRole('link', { name: 'Link to the section Configure' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/#configure$/);

  // Search as you type: matches appear under the box; arrows choose, Enter opens.
  const search = page.getByRole('combobox', { name: 'Search this site' });
  await search.fill('corporate prox');
  const suggestions = page.getByRole('listbox', { name: 'Matching pages' });
  await expect(suggestions.getByRole('option')).toHaveCount(1);
  await expect(suggestions.getByRole('option').first()).toContainText('Proxies');
  await expect(suggestions.locator('mark').first()).toBeVisible();
  await expectAccessible(page);
  await search.press('ArrowDown');
  await expect(suggestions.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await search.press('Enter');
  await expect(article.getByRole('heading', { level: 1, name: 'Proxies' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Search this site' }).fill('zzzqqq');
  await expect(page.getByRole('listbox', { name: 'Matching pages' })).toContainText('No page matches');
  await page.getByRole('combobox', { name: 'Search this site' }).press('Escape');
  await expect(page.getByRole('listbox', { name: 'Matching pages' })).toBeHidden();
});

test('a site admin customizes the site with a live preview, saves, and readers see it', async ({ page }) => {
  const organizationId = await newOrganization(page, 'Brand journey');
  const space = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, { title: 'Guide' });
  await seedPage(page, space.id, 'Introduction', 'Welcome to the guide.');
  await seedPage(page, space.id, 'Usage', 'How to use it.');
  const { site, live } = await publicSite(page, organizationId, 'Acme Docs', space.id);

  await page.goto(`/o/${organizationId}/sites/${site.id}`);
  await page.getByRole('navigation', { name: 'Site sections' }).getByRole('link', { name: 'Customization' }).click();
  const form = page.getByRole('form', { name: 'Customization' });
  const preview = page.frameLocator('iframe[title="Preview of the site’s first page"]');
  await expect(preview.getByRole('heading', { level: 1, name: 'Introduction' })).toBeVisible();
  await expect(preview.getByRole('link', { name: 'Acme Docs' })).toBeVisible();
  await expectAccessible(page);

  // The preview follows the form before anything is saved.
  await form.getByLabel('Title on the site').fill('Acme Handbook');
  await form.getByLabel('Show an announcement above the header').check();
  await form.getByLabel('Message').fill('Version 2 is out');
  await form.getByLabel('Theme', { exact: true }).selectOption('bold');
  await form.getByLabel('Previous and next links under each page').uncheck();
  await expect(preview.getByRole('link', { name: 'Acme Handbook' })).toBeVisible();
  await expect(preview.getByRole('region', { name: 'Announcement' })).toContainText('Version 2 is out');
  await expect(preview.getByRole('navigation', { name: 'Previous and next pages' })).toHaveCount(0);

  // A logo needs both modes: the form says so before sending.
  await form.getByLabel('Logo, light mode').fill('https://example.com/logo.png');
  await expect(form.getByText('Give the logo for dark mode too')).toBeVisible();
  await form.getByLabel('Logo, light mode').fill('');

  // A header button and a group of footer links.
  await form.getByRole('button', { name: 'Add a header link' }).click();
  await form.getByLabel('Header link 1', { exact: true }).fill('Status');
  await form.getByLabel('Address').first().fill('https://status.example.com');
  await form.getByLabel('Shown as').selectOption({ label: 'Button' });
  await form.getByRole('button', { name: 'Add a footer group' }).click();
  await form.getByLabel('Footer group 1', { exact: true }).fill('Company');
  await form.getByLabel('Link 1 of group 1', { exact: true }).fill('Blog');
  await form
    .getByRole('list', { name: 'Links of footer group 1' })
    .getByLabel('Address')
    .fill('https://example.com/blog');
  await expect(
    preview.getByRole('navigation', { name: 'Site links' }).getByRole('link', { name: 'Status' }),
  ).toBeVisible();
  await expect(preview.getByRole('navigation', { name: 'Company' }).getByRole('link', { name: 'Blog' })).toBeVisible();

  // Nothing is live until saved.
  const reader = await page.context().newPage();
  await reader.goto(live);
  await expect(reader.getByRole('link', { name: 'Acme Docs' })).toBeVisible();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Customization saved')).toBeVisible();
  await reader.reload();
  await expect(reader.getByRole('link', { name: 'Acme Handbook' })).toBeVisible();
  await expect(reader.getByRole('region', { name: 'Announcement' })).toContainText('Version 2 is out');
  await expect(reader.getByRole('navigation', { name: 'Previous and next pages' })).toHaveCount(0);
  await expect(reader).toHaveTitle('Introduction · Acme Handbook');
  await expect(
    reader.getByRole('navigation', { name: 'Site links' }).getByRole('link', { name: 'Status' }),
  ).toHaveAttribute('href', 'https://status.example.com');
  await expect(reader.getByRole('navigation', { name: 'Company' }).getByRole('link', { name: 'Blog' })).toBeVisible();
  await expectAccessible(reader);
  await reader.close();

  // Back in the console, the saved values are the form's.
  await page.reload();
  await expect(page.getByRole('form', { name: 'Customization' }).getByLabel('Title on the site')).toHaveValue(
    'Acme Handbook',
  );
});

test('a reader of a large site: the page holds the way to it, folded chapters and further pages load in place, by mouse and keyboard', async ({
  page,
}) => {
  const organizationId = await newOrganization(page, 'Large site journey');
  const space = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, { title: 'Reference' });
  const cr = await callApi(page, 'POST', `/spaces/${space.id}/change-requests`, { subject: 'Seed' });
  const content = `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`;
  // 8 chapters of 60 pages: more than a page holds whole (navigation.ts: WHOLE_TREE_MAX, LEVEL_WINDOW).
  const chapters = await callApi(page, 'POST', content, {
    changes: Array.from({ length: 8 }, (_, c) => ({ operation: 'insert_page', title: `Chapter ${c}` })),
  });
  for (const [c, change] of (chapters.changes as Array<{ page: { id: string } }>).entries()) {
    for (const from of [0, 30]) {
      await callApi(page, 'POST', content, {
        changes: Array.from({ length: 30 }, (_, k) => ({
          operation: 'insert_page',
          title: `Topic ${c}.${from + k}`,
          into: change.page.id,
        })),
      });
    }
  }
  await callApi(page, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const { live } = await publicSite(page, organizationId, 'Big Docs', space.id);

  await page.goto(`${live}/chapter-2`);
  const pages = page.getByRole('navigation', { name: 'Pages', exact: true });
  await expect(pages.getByRole('link', { name: 'Chapter 2' })).toHaveAttribute('aria-current', 'page');
  // The open chapter shows 50 of its 60 pages, the rest behind a link; other chapters are folded and empty.
  await expect(pages.getByRole('link', { name: 'Topic 2.0', exact: true })).toBeVisible();
  await expect(pages.getByRole('link', { name: 'Topic 2.55' })).toHaveCount(0);
  await expect(pages.getByRole('link', { name: 'Topic 5.3', exact: true })).toHaveCount(0);

  // Opening a folded chapter loads its pages in place.
  await page.getByLabel('Chapter 5: pages inside').click();
  await expect(pages.getByRole('link', { name: 'Topic 5.3', exact: true })).toBeVisible();
  await expect(pages.getByRole('link', { name: 'Topic 5.59' })).toBeVisible();

  // The rest of the open chapter, from the keyboard: the link's list replaces it, focus on its first page.
  const more = pages.getByRole('link', { name: 'Show 10 more pages' });
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(pages.getByRole('link', { name: 'Topic 2.59' })).toBeVisible();
  await expect(pages.getByRole('link', { name: 'Topic 2.50' })).toBeFocused();
  await expect(page).toHaveURL(`${live}/chapter-2`);
  await expectAccessible(page);

  // Following a loaded link opens the page, whose own navigation is again the way to it.
  await pages.getByRole('link', { name: 'Topic 5.59' }).click();
  await expect(page.getByRole('article').getByRole('heading', { level: 1, name: 'Topic 5.59' })).toBeVisible();
  await expect(pages.getByRole('link', { name: 'Topic 5.59' })).toHaveAttribute('aria-current', 'page');
});

test("GitBook's blocks read as blocks on the published site (tabs from the keyboard, a phone) and in the console", async ({
  page,
}) => {
  const organizationId = await newOrganization(page, 'Blocks journey');
  const space = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, { title: 'Guide' });
  const markdown = [
    '{% tabs %}\n{% tab title="npm" %}\nRun `npm install acme`.\n{% endtab %}\n\n{% tab title="Yarn" %}\nRun `yarn add acme`.\n{% endtab %}\n{% endtabs %}',
    '{% stepper %}\n{% step %}\n### Install\nInstall it.\n{% endstep %}\n{% step %}\n### Configure\nConfigure it.\n{% endstep %}\n{% endstepper %}',
    '{% code title="acme.config.js" %}\n```js\nexport default { port: 3000 };\n```\n{% endcode %}',
    '{% hint style="success" %}\nAll set.\n{% endhint %}',
    '{% embed url="https://example.com/video" %}',
    '{% fancy %}\nSomething new.\n{% endfancy %}',
  ].join('\n\n');
  const pageId = await seedPage(page, space.id, 'Blocks', markdown);
  const { live } = await publicSite(page, organizationId, 'Acme Docs', space.id);

  await page.goto(live);
  const article = page.getByRole('article');
  await expect(article.getByRole('heading', { level: 1, name: 'Blocks' })).toBeVisible();
  // Tabs are a tablist: one panel shown, arrows move between tabs.
  const tabs = article.getByRole('tablist');
  await expect(tabs.getByRole('tab')).toHaveText(['npm', 'Yarn']);
  await expect(article.getByRole('tabpanel')).toHaveText(/npm install acme/);
  await tabs.getByRole('tab', { name: 'npm' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: 'Yarn' })).toBeFocused();
  await expect(tabs.getByRole('tab', { name: 'Yarn' })).toHaveAttribute('aria-selected', 'true');
  await expect(article.getByRole('tabpanel')).toHaveText(/yarn add acme/);
  await expect(article.getByText('npm install acme')).toBeHidden();
  // The other blocks, and no tag left as text.
  await expect(article.locator('.gb-stepper > li')).toHaveCount(2);
  await expect(article.locator('figure.gb-code figcaption')).toHaveText('acme.config.js');
  await expect(article.getByRole('note').filter({ hasText: 'Tip' })).toContainText('All set.');
  await expect(article.getByRole('link', { name: 'https://example.com/video' })).toBeVisible();
  await expect(article.getByRole('note').filter({ hasText: '{% fancy %}' })).toContainText('Something new.');
  expect((await article.innerText()).replace('{% fancy %}', '')).not.toContain('{%');
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page);

  // The console's page shows the same blocks.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`/o/${organizationId}/spaces/${space.id}/pages/${pageId}`);
  const body = page.locator('.markdown').first();
  // Tabs are a tablist here too.
  const consoleTabs = body.getByRole('tablist');
  await expect(consoleTabs.getByRole('tab')).toHaveText(['npm', 'Yarn']);
  await consoleTabs.getByRole('tab', { name: 'npm' }).focus();
  await page.keyboard.press('End');
  await expect(consoleTabs.getByRole('tab', { name: 'Yarn' })).toHaveAttribute('aria-selected', 'true');
  await expect(body.getByRole('tabpanel')).toHaveText(/yarn add acme/);
  await expectAccessible(page);
  await expect(body.locator('.gb-stepper > li')).toHaveCount(2);
  await expect(body.getByRole('note').filter({ hasText: 'Tip' })).toContainText('All set.');
  expect((await body.innerText()).replace('{% fancy %}', '')).not.toContain('{%');
});
