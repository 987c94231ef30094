import { expect, expectAccessible, newPerson, test } from './support';

/** A 2×2 PNG, as a file chosen from disk. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8AARAxg8j8AG/ID/fPnS7EAAAAASUVORK5CYII=',
  'base64',
);

test('in account settings someone creates an API token, uses it, revokes it, and changes their name and photo', async ({
  browser,
  request,
}) => {
  // Sign-up, two reloads and two accessibility scans: about 40 s alone, more on a loaded machine.
  test.slow();
  const { page, context, password } = await newPerson(browser, 'Ada Account');
  await page.getByRole('button', { name: /^Account: Ada Account/ }).click();
  await page.getByRole('menuitem', { name: 'Account settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();

  // No token yet; one is created with a label and the password typed again (a token outlives the sign-in), and its
  // secret is shown once, with a copy button.
  await expect(page.getByText('No API token')).toBeVisible();
  await page.getByLabel('Token label').fill('Deploy script');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByText('Type your password to create a token')).toBeVisible();
  await page.getByLabel('Your password').fill(password);
  await page.getByRole('button', { name: 'Create token' }).click();
  const secretField = page.getByRole('textbox', { name: 'API token' });
  await expect(secretField).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy API token' })).toBeVisible();
  const secret = await secretField.inputValue();
  expect(secret).toMatch(/^ds_/);
  const table = page.getByRole('table', { name: 'API tokens' });
  const row = table.getByRole('row', { name: /Deploy script/ });
  await expect(row).toContainText('Never');
  await expectAccessible(page, 'section[aria-labelledby="account-tokens-title"]');

  // The token works against the API, from outside the browser; the list then says it was used.
  const used = await request.get('/v1/user', {
    headers: { authorization: `Bearer ${secret}`, 'user-agent': 'deploy-script/2.1' },
  });
  expect(used.status()).toBe(200);
  expect((await used.json()).displayName).toBe('Ada Account');
  await page.reload();
  await expect(row).not.toContainText('Never');
  // ...and where from: the address and the client.
  await expect(row).toContainText('deploy-script/2.1');
  // Once dismissed (or after a reload), the secret is nowhere on the page.
  await expect(page.getByRole('textbox', { name: 'API token' })).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);

  // Revoked after confirming: the API refuses it from then on.
  await row.getByRole('button', { name: 'Revoke Deploy script' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke Deploy script?' });
  await confirm.getByRole('button', { name: 'Revoke token' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('No API token')).toBeVisible();
  const refused = await request.get('/v1/user', { headers: { authorization: `Bearer ${secret}` } });
  expect(refused.status()).toBe(401);

  // A password change says which tokens still work, unless they are revoked with it.
  await page.getByLabel('Token label').fill('CI');
  await page.getByLabel('Your password').fill(password);
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(table.getByRole('row', { name: /CI/ })).toBeVisible();
  const passwordForm = page.getByRole('form', { name: 'Change password' });
  await passwordForm.getByLabel('Current password').fill(password);
  await passwordForm.getByLabel('New password', { exact: true }).fill('another-long-password');
  await passwordForm.getByLabel('New password again').fill('another-long-password');
  await passwordForm.getByRole('button', { name: 'Change password' }).click();
  await expect(passwordForm.getByRole('status')).toContainText('This API token still works with the new password: CI');
  await passwordForm.getByLabel('Current password').fill('another-long-password');
  await passwordForm.getByLabel('New password', { exact: true }).fill('a-third-long-password');
  await passwordForm.getByLabel('New password again').fill('a-third-long-password');
  await passwordForm.getByLabel('Also revoke my API tokens').check();
  await passwordForm.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('One API token was revoked')).toBeVisible();
  await expect(page.getByText('No API token')).toBeVisible();

  // The display name changes, and the account menu says so at once.
  const name = page.getByRole('textbox', { name: 'Display name' });
  await name.fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Display name saved')).toBeVisible();
  const menuButton = page.getByRole('button', { name: /^Account: Ada Lovelace/ });
  await expect(menuButton).toBeVisible();
  await expect(menuButton).toContainText('Ada Lovelace');

  // A photo: a file that is not an image is refused in a sentence; a PNG shows in the account menu.
  await page.getByLabel('Photo').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(page.getByRole('alert').filter({ hasText: 'PNG' })).toHaveText('Choose a PNG, JPEG, GIF or WebP image.');
  await page.getByLabel('Photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('Photo saved')).toBeVisible();
  const avatar = menuButton.locator('img.avatar');
  await expect(avatar).toHaveAttribute('src', /\/v1\/users\/[^/]+\/photos\/[^/]+$/);
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);

  // This browser is listed among the sessions, marked as this one.
  const sessions = page.getByRole('list', { name: 'Sessions' });
  await expect(sessions.getByText('This session')).toBeVisible();
  await expectAccessible(page, '.account-page');

  // After a reload the name and photo are still there (they were saved, not only shown).
  await page.reload();
  await expect(page.getByRole('button', { name: /^Account: Ada Lovelace/ }).locator('img.avatar')).toBeVisible();
  await context.close();
});

test('the console follows the system theme, and the account menu sets Light or Dark for this browser', async ({
  browser,
}) => {
  const { page, context } = await newPerson(browser, 'Theo Theme');
  const html = page.locator('html');
  // The system's scheme, followed as it changes.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-theme', 'light');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const lightBackground = await background();

  // Dark from the account menu: kept over the system's light, across a reload, and the page really is dark.
  const openMenu = () => page.getByRole('button', { name: /^Account: Theo Theme/ }).click();
  await openMenu();
  await expect(page.getByRole('menuitemradio', { name: 'System' })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('menuitemradio', { name: 'Dark' }).click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await background()).not.toBe(lightBackground);
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await openMenu();
  await expect(page.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true');

  // Back to System: the system's light again.
  await page.getByRole('menuitemradio', { name: 'System' }).click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await context.close();
});
