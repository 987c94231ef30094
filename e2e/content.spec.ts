import type { Request } from '@playwright/test';
import {
  createOrganization,
  createSpaceAtRoot,
  expect,
  newOrganization,
  newSpace,
  openOrganization,
  seedPage,
  test,
  tree,
} from './support';

// The other journeys make their organizations and spaces through the API; these make them with the console's dialogs.
test('create an organization, a collection, then a space inside it: they appear in the switcher and the tree', async ({
  page,
}) => {
  await page.goto('/');
  await createOrganization(page, 'Tree journey');

  await page.getByRole('button', { name: 'New collection' }).first().click();
  const collectionDialog = page.getByRole('dialog', { name: 'New collection' });
  await collectionDialog.getByLabel('Title').fill('Guides');
  await expect(collectionDialog.getByText('6/50')).toBeVisible();
  await collectionDialog.getByRole('button', { name: 'Create collection' }).click();
  await expect(collectionDialog).toBeHidden();
  await expect(tree(page).getByRole('link', { name: 'Guides' })).toBeVisible();

  await page.getByRole('button', { name: 'Actions for collection Guides' }).click();
  await page.getByRole('menuitem', { name: 'New space inside…' }).click();
  const spaceDialog = page.getByRole('dialog', { name: 'New space' });
  await expect(spaceDialog).toContainText('Inside “Guides”');
  await spaceDialog.getByLabel('Title').fill('Getting started');
  await spaceDialog.getByRole('button', { name: 'Create space' }).click();
  await expect(spaceDialog).toBeHidden();

  const insideGuides = tree(page).getByRole('list', { name: 'Inside Guides' });
  await expect(insideGuides.getByRole('link', { name: 'Getting started' })).toBeVisible();

  // The tree is the server's, not a local guess: it is the same after a reload.
  await page.reload();
  await expect(
    tree(page).getByRole('list', { name: 'Inside Guides' }).getByRole('link', { name: 'Getting started' }),
  ).toBeVisible();

  // The collection has its own page, with its own URL, listing the space.
  await tree(page).getByRole('link', { name: 'Guides' }).click();
  await expect(page).toHaveURL(/\/o\/[^/]+\/collections\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Guides' })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Inside Guides' }).getByRole('link', { name: 'Getting started' }),
  ).toBeVisible();
});

test('a 51-character title is refused before any request; a valid rename works', async ({ page }) => {
  await openOrganization(page, await newOrganization(page, 'Rename journey'));
  // The space at the root comes from the "New space" dialog.
  await createSpaceAtRoot(page, 'Draft space');

  const titleChanges: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && /\/v1\/spaces\//.test(request.url())) titleChanges.push(request);
  });

  await page.getByRole('button', { name: 'Actions for space Draft space' }).click();
  await page.getByRole('menuitem', { name: 'Rename…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename space' });
  const title = dialog.getByLabel('Title');

  const tooLong = 'A'.repeat(51);
  await title.fill(tooLong);
  await expect(dialog.getByText('51/50')).toBeVisible();
  await expect(dialog.getByText('Use at most 50 characters')).toBeVisible();
  await expect(title).toHaveAttribute('aria-invalid', 'true');

  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect(dialog).toBeVisible();
  await expect(title).toBeFocused();
  expect(titleChanges).toHaveLength(0);

  // Exactly at the limit is fine.
  const atLimit = `Handbook ${'B'.repeat(41)}`;
  await title.fill(atLimit);
  await expect(dialog.getByText('50/50')).toBeVisible();
  await expect(dialog.getByText('Use at most 50 characters')).toBeHidden();
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect(dialog).toBeHidden();
  expect(titleChanges).toHaveLength(1);

  await expect(tree(page).getByRole('link', { name: atLimit })).toBeVisible();
  await expect(tree(page).getByRole('link', { name: 'Draft space' })).toBeHidden();
  await page.reload();
  await expect(tree(page).getByRole('link', { name: atLimit })).toBeVisible();
});

test('delete a space after confirming, find it in the trash, restore it into the tree', async ({ page }) => {
  const organizationId = await newOrganization(page, 'Trash journey');
  await newSpace(page, organizationId, 'Old notes');
  await newSpace(page, organizationId, 'Keeper');
  await openOrganization(page, organizationId);

  await page.getByRole('button', { name: 'Actions for space Old notes' }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete space?' });
  await expect(confirm).toContainText('“Old notes” moves to the trash');

  // Cancelling keeps it.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(tree(page).getByRole('link', { name: 'Old notes' })).toBeVisible();

  await page.getByRole('button', { name: 'Actions for space Old notes' }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  await confirm.getByRole('button', { name: 'Delete space' }).click();
  await expect(confirm).toBeHidden();
  await expect(tree(page).getByRole('link', { name: 'Old notes' })).toBeHidden();
  await expect(tree(page).getByRole('link', { name: 'Keeper' })).toBeVisible();

  const sections = page.getByRole('navigation', { name: 'Trash journey sections' });
  await sections.getByRole('link', { name: 'Trash' }).click();
  await expect(page).toHaveURL(/\/o\/[^/]+\/trash$/);
  await expect(page).toHaveTitle('Trash · Trash journey · Docspace');
  const trash = page.getByRole('list', { name: 'Deleted spaces' });
  await expect(trash.getByText('Old notes')).toBeVisible();
  await expect(trash.getByText(/days? left to restore/)).toBeVisible();
  await expect(trash.getByText('Keeper')).toBeHidden();

  // The trash has its own URL too.
  await page.reload();
  await expect(page.getByRole('list', { name: 'Deleted spaces' }).getByText('Old notes')).toBeVisible();

  await page.getByRole('button', { name: 'Restore Old notes' }).click();
  await expect(page.getByText('The trash is empty')).toBeVisible();

  await sections.getByRole('link', { name: 'Content' }).click();
  await expect(page).toHaveURL(/\/o\/[^/]+$/);
  await expect(tree(page).getByRole('link', { name: 'Old notes' })).toBeVisible();
  await expect(tree(page).getByRole('link', { name: 'Keeper' })).toBeVisible();
});

test('a page whose body opens with its own title shows that title once', async ({ page }) => {
  const organizationId = await newOrganization(page, 'Titles');
  const spaceId = await newSpace(page, organizationId, 'Imported docs');
  const pageId = await seedPage(page, spaceId, 'Getting started', '# Getting started\n\nInstall it first.\n');
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/pages/${pageId}`);
  await expect(page.getByText('Install it first.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Getting started' })).toHaveCount(1);
});
