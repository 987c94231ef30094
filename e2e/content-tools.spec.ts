import { strToU8, zipSync } from 'fflate';
import { callApi, expect, expectAccessible, openNewSpace, seedPage, test } from './support';

test('the links report shows a broken link first, and "Fix in a change request" opens that page in the editor', async ({
  page,
}) => {
  const { spaceId } = await openNewSpace(page, 'Links journey', 'Linked docs');
  await seedPage(page, spaceId, 'Setup', 'How to set up.\n\n## Installing the CLI\n\nRun it.');
  await seedPage(
    page,
    spaceId,
    'Guide',
    'Read [the setup](./setup.md) and [the missing page](./missing.md).\n\nThen [install it](./setup.md#instaling-the-cli).',
  );
  await page.reload();

  await page.getByRole('navigation', { name: 'Space sections' }).getByRole('link', { name: 'Links' }).click();
  await expect(page.getByRole('heading', { name: 'Links', level: 2 })).toBeVisible();
  await expect(page.getByText(/3 links,\s*2 broken/)).toBeVisible();
  const rows = page.locator('.links-table tbody tr');
  await expect(rows).toHaveCount(2);
  const missing = rows.filter({ hasText: 'missing' });
  await expect(missing).toContainText('Broken');
  await expect(missing.getByRole('link', { name: 'Guide' })).toBeVisible();
  // A misspelt section: the report says which one was likely meant.
  const misspelt = rows.filter({ hasText: '#instaling-the-cli' });
  await expect(misspelt).toContainText('Did you mean #installing-the-cli?');

  // All links: the working one is listed too.
  await page.getByRole('button', { name: 'All links' }).click();
  await expect(rows).toHaveCount(3);
  await expect(page.locator('.links-table')).toContainText('Setup');

  // Fix opens the page in the editor with the broken link selected.
  await page.getByRole('button', { name: 'Broken' }).click();
  await misspelt.getByRole('button', { name: /Fix in a change request/ }).click();
  await expect(page).toHaveURL(/\/change-requests\/\d+\/pages\/[^/?]+\?find=/);
  const content = page.getByRole('textbox', { name: 'Content' });
  await expect(content).toBeFocused();
  expect(await content.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd))).toBe(
    '#instaling-the-cli',
  );
});

test('Ctrl+K finds a page by a word of its text and opens it', async ({ page }) => {
  const { spaceId } = await openNewSpace(page, 'Search journey', 'Searchable docs');
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
  await page.getByRole('button', { name: /^Search (Control|Ctrl|⌘)/ }).click();
  await palette.getByRole('combobox', { name: 'Search pages' }).fill('zebracorn');
  await expect(palette.getByText('No page matches “zebracorn”.')).toBeVisible();
});

/** A folder of markdown files as a zip: a SUMMARY.md orders it; one link points at a file that is not there. */
function handbookZip(): Buffer {
  const files = {
    'handbook/SUMMARY.md':
      '# Summary\n\n* [Welcome](README.md)\n* [Onboarding](onboarding.md)\n  * [Laptop setup](laptop.md)\n',
    'handbook/README.md': '# Welcome\n\nStart with [onboarding](onboarding.md).\n',
    'handbook/onboarding.md':
      '# Onboarding\n\nYour first week. See [the laptop page](laptop.md) and [the old wiki](wiki.md).\n',
    'handbook/laptop.md': '# Laptop setup\n\nInstall the quokka toolchain before anything else.\n',
  };
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)]))));
}

test('import a zip into a space, find a word of it with Ctrl+K and the space search, see its broken link, and search the published site', async ({
  page,
}) => {
  const { organizationId, spaceId } = await openNewSpace(page, 'Import journey', 'Handbook');
  await expect(page.getByText('This space has no pages yet')).toBeVisible();

  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import pages' });
  await expect(dialog.getByLabel('Import from')).toHaveValue('file');
  // Nothing chosen: the dialog says so and sends nothing.
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByText('Choose a file to import')).toBeVisible();
  await dialog
    .getByLabel('File')
    .setInputFiles({ name: 'handbook.zip', mimeType: 'application/zip', buffer: handbookZip() });
  await expect(dialog.getByLabel('Content')).toHaveValue('zip');
  await expectAccessible(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(page.getByText(/Imported \d+ of \d+ pages and files/)).toBeVisible();

  // The page tree, in the SUMMARY.md's order and nesting.
  const pages = page.getByRole('navigation', { name: 'Pages of Handbook' });
  await expect(pages.getByRole('link')).toHaveText(['Welcome', 'Onboarding', 'Laptop setup']);

  // Ctrl+K finds the page by a word of its text, and opens it.
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Search pages' });
  await palette.getByRole('combobox', { name: 'Search pages' }).fill('quokka');
  await expect(palette.getByRole('option').first()).toContainText('Laptop setup');
  await expect(palette.locator('mark', { hasText: /^quokka$/i }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('article', { name: 'Laptop setup' })).toContainText('quokka toolchain');

  // The space's own search box: results take the tree's place, with the match marked; Escape brings the tree back.
  const box = page.getByRole('searchbox', { name: 'Search Handbook' });
  await box.fill('first week');
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('link', { name: 'Onboarding' })).toBeVisible();
  await expect(results.locator('mark').first()).toBeVisible();
  await expectAccessible(page);
  await box.press('Escape');
  await expect(pages.getByRole('link')).toHaveCount(3);

  // The links report: the link to the file the zip did not contain is broken.
  await page.getByRole('navigation', { name: 'Space sections' }).getByRole('link', { name: 'Links' }).click();
  const rows = page.locator('.links-table tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('wiki');
  await expect(rows.first().getByRole('link', { name: 'Onboarding' })).toBeVisible();

  // Published, the site's search finds the page.
  const site = await callApi(page, 'POST', `/orgs/${organizationId}/sites`, {
    title: 'Handbook site',
    visibility: 'public',
    spaces: [spaceId],
  });
  const published = await callApi(page, 'POST', `/orgs/${organizationId}/sites/${site.id}/publish`);
  const live = (published.urls?.published ?? site.urls?.published) as string;
  expect(live).toBeTruthy();
  await page.goto(live);
  await page.getByRole('combobox', { name: 'Search this site' }).fill('quokka');
  await page.getByRole('combobox', { name: 'Search this site' }).press('Enter');
  await expect(page).toHaveURL(/~search\?q=quokka/);
  await expect(page.getByRole('link', { name: /Laptop setup/ }).first()).toBeVisible();
  await expect(page.locator('mark', { hasText: /quokka/i }).first()).toBeVisible();
  // The results page keeps the site's page tree beside them.
  await expect(page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link').first()).toBeVisible();
  await expectAccessible(page);
});

test('an import that fails says why in the dialog and changes nothing', async ({ page }) => {
  await openNewSpace(page, 'Import failure journey', 'Empty docs');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import pages' });
  await dialog.getByLabel('Import from').selectOption('url');
  await dialog.getByLabel('URL').fill('http://127.0.0.1:9/secret.md');
  await dialog.getByLabel('Content').selectOption('markdown');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByRole('alert').first()).toContainText(/private|loopback|not allowed|refused/i);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('This space has no pages yet')).toBeVisible();
});

test('an import that cannot bring every file imports the rest and lists what it left out, and why', async ({
  page,
}) => {
  await openNewSpace(page, 'Partial import journey', 'Guide');
  const zip = Buffer.from(
    zipSync({
      'guide/README.md': strToU8('# Welcome\n\n![Screenshot](big.png)\n'),
      'guide/setup.md': strToU8('# Setup\n\nInstall it.\n'),
      // A retina screenshot past 1 MiB comes in; a page nested past the limit keeps only its title.
      'guide/big.png': new Uint8Array(1024 * 1024 + 1),
      'guide/deep.md': strToU8(`${'> '.repeat(40)}too deep\n`),
    }),
  );
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import pages' });
  await dialog.getByLabel('File').setInputFiles({ name: 'guide.zip', mimeType: 'application/zip', buffer: zip });
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByRole('status')).toHaveText(/Imported 4 of 4 pages and files\. Not imported in full \(1\)/, {
    timeout: 20_000,
  });
  await expect(dialog.getByRole('listitem')).toHaveText(
    /^deep\.md: its content was not imported: it nests blockquotes and lists/,
  );
  await expectAccessible(page, '[role="dialog"]');
  await expect(dialog.getByRole('button', { name: 'Done' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const pages = page.getByRole('navigation', { name: 'Pages of Guide' });
  await expect(pages.getByRole('link')).toHaveText(['Welcome', 'Deep', 'Setup']);
});
