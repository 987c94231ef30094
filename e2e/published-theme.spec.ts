import { callApi, createOrganization, expect, expectAccessible, seedPage, signIn, test } from './support';

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

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('a published site reads well on a desktop and a phone: navigation, on this page, previous and next, dark mode, no sideways scroll', async ({
  page,
}) => {
  const organizationId = await createOrganization(page, 'Theme journey');
  const space = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, { title: 'Guide' });
  await seedPage(page, space.id, 'Introduction', INTRODUCTION);
  await seedPage(page, space.id, 'Usage', 'How to use it.');
  const site = await callApi(page, 'POST', `/orgs/${organizationId}/sites`, {
    title: 'Acme Docs',
    visibility: 'public',
    spaces: [space.id],
  });
  const live = (await callApi(page, 'POST', `/orgs/${organizationId}/sites/${site.id}/publish`)).urls
    .published as string;

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
