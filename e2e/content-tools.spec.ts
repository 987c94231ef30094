import { createOrganization, createSpaceAtRoot, expect, openSpace, seedPage, signIn, test } from './support';

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('the links report shows a broken link first, and "Fix in a change request" opens that page in the editor', async ({
  page,
}) => {
  await createOrganization(page, 'Links journey');
  await createSpaceAtRoot(page, 'Linked docs');
  const spaceId = await openSpace(page, 'Linked docs');
  await seedPage(page, spaceId, 'Setup', 'How to set up.');
  await seedPage(page, spaceId, 'Guide', 'Read [the setup](./setup.md) and [the missing page](./missing.md).');
  await page.reload();

  await page.getByRole('navigation', { name: 'Space sections' }).getByRole('link', { name: 'Links' }).click();
  await expect(page.getByRole('heading', { name: 'Links', level: 2 })).toBeVisible();
  await expect(page.getByText(/2 links,\s*1 broken/)).toBeVisible();
  const rows = page.locator('.links-table tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('missing');
  await expect(rows.first()).toContainText('Broken');
  await expect(rows.first().getByRole('link', { name: 'Guide' })).toBeVisible();

  // All links: the working one is listed too.
  await page.getByRole('button', { name: 'All links' }).click();
  await expect(rows).toHaveCount(2);
  await expect(page.locator('.links-table')).toContainText('Setup');

  await page.getByRole('button', { name: 'Broken' }).click();
  await page.getByRole('button', { name: /Fix in a change request/ }).click();
  await expect(page).toHaveURL(/\/change-requests\/\d+\/pages\/[^/]+$/);
  await expect(
    page.getByText('Read the setup and the missing page.').or(page.getByRole('textbox')).first(),
  ).toBeVisible();
});

test('Ctrl+K finds a page by a word of its text and opens it', async ({ page }) => {
  await createOrganization(page, 'Search journey');
  await createSpaceAtRoot(page, 'Searchable docs');
  const spaceId = await openSpace(page, 'Searchable docs');
  await seedPage(page, spaceId, 'Deployment', '## Rolling upgrades\n\nThe flux capacitor needs configuring first.');
  await seedPage(page, spaceId, 'Other', 'Nothing to see.');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Searchable docs' })).toBeVisible();

  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Search pages' });
  await expect(palette).toBeVisible();
  await palette.getByRole('combobox', { name: 'Search pages' }).fill('capacitor config');
  const options = palette.getByRole('option');
  await expect(options.first()).toContainText('Deployment');
  await expect(palette.locator('mark').first()).toBeVisible();
  await expect(palette.getByRole('option', { name: /Other/ })).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/spaces/${spaceId}/pages/[^/#]+`));
  await expect(page.getByRole('article', { name: 'Deployment' })).toContainText('The flux capacitor needs configuring');

  // Nothing found: said so.
  await page.getByRole('button', { name: /^Search/ }).click();
  await palette.getByRole('combobox', { name: 'Search pages' }).fill('zebracorn');
  await expect(palette.getByText('No page matches “zebracorn”.')).toBeVisible();
});
