import { callApi, expect, newOrganization, newSpace, openOrganization, test, tree } from './support';

test('move a space into a collection, then delete the collection: its spaces go to the trash', async ({ page }) => {
  const organizationId = await newOrganization(page, 'Move journey');
  await callApi(page, 'POST', `/orgs/${organizationId}/collections`, { title: 'Archive' });
  await newSpace(page, organizationId, 'Loose notes');
  await openOrganization(page, organizationId);

  await page.getByRole('button', { name: 'Actions for space Loose notes' }).click();
  await page.getByRole('menuitem', { name: 'Move to…' }).click();
  const move = page.getByRole('dialog', { name: 'Move space' });
  // Where it already is is not a move.
  await move.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(move.getByText('It is already there. Choose another place.')).toBeVisible();
  await move.getByLabel('Destination').selectOption({ label: 'Archive' });
  await move.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(move).toBeHidden();
  await expect(
    tree(page).getByRole('list', { name: 'Inside Archive' }).getByRole('link', { name: 'Loose notes' }),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Actions for collection Archive' }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete collection?' });
  await expect(confirm).toContainText('1 space inside it will move to the trash');
  await confirm.getByRole('button', { name: 'Delete collection' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('heading', { name: 'No collections or spaces yet' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Move journey sections' }).getByRole('link', { name: 'Trash' }).click();
  await expect(page.getByRole('list', { name: 'Deleted spaces' }).getByText('Loose notes')).toBeVisible();
});

test('the tree works from the keyboard alone, and focus comes back to where it was', async ({ page }) => {
  const organizationId = await newOrganization(page, 'Keyboard journey');
  await newSpace(page, organizationId, 'Keys');
  await openOrganization(page, organizationId);

  const menuButton = page.getByRole('button', { name: 'Actions for space Keys' });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Rename…' })).toBeFocused();
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Rename space' });
  const title = dialog.getByLabel('Title');
  await expect(title).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Keyboard only');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(tree(page).getByRole('link', { name: 'Keyboard only' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Actions for space Keyboard only' })).toBeFocused();

  // Escape closes a dialog without doing anything.
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Delete…' }).press('Enter');
  const confirm = page.getByRole('alertdialog', { name: 'Delete space?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(tree(page).getByRole('link', { name: 'Keyboard only' })).toBeVisible();
});

test('menus open from the keyboard on first use, while their code is only then downloaded', async ({ page }) => {
  const organizationId = await newOrganization(page, 'First use journey');
  await newSpace(page, organizationId, 'Cold');
  // A fresh load: no menu has been used, so each is its button alone until pressed (components/ui/dropdown-menu.tsx).
  await openOrganization(page, organizationId);
  const switcher = page.getByRole('button', { name: 'Switch organization' });
  const spaceMenu = page.getByRole('button', { name: 'Actions for space Cold' });
  await expect(spaceMenu).toHaveAttribute('aria-haspopup', 'menu');
  await expect(spaceMenu).toHaveAttribute('aria-expanded', 'false');

  await switcher.focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('menuitemradio').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await expect(switcher).toBeFocused();

  // A menu shown before the code came opens the same way once it is here.
  await spaceMenu.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Rename…' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(spaceMenu).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Rename…' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(spaceMenu).toBeFocused();
});

test('an address no screen answers says so inside the console, with its menus and sidebar', async ({ page }) => {
  const organizationId = await newOrganization(page, 'Lost journey');
  await page.goto(`/o/${organizationId}/no-such-screen`);
  await expect(page.getByRole('heading', { name: 'This page does not exist' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Lost journey sections' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Account:/ })).toBeVisible();

  await page.goto('/no/such/place');
  await expect(page.getByRole('heading', { name: 'This page does not exist' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Account:/ })).toBeVisible();
  await expect(page.getByRole('main')).toHaveCount(1);
  await page.getByRole('link', { name: 'Go to your organizations' }).click();
  await expect(page).not.toHaveURL(/no\/such\/place/);
});
