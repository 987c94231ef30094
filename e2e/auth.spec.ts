import { expect, OWNER, signIn, test } from './support';

test('signing in lands on the first organization, survives a reload, and signing out ends the session', async ({
  page,
}) => {
  // Signed out, a deep link leads to the sign-in page, which remembers where to go back to.
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\?redirect=%2F$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  // A wrong password is refused with a message, and nobody gets in.
  await page.getByLabel('E-mail').fill(OWNER.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);

  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  const home = page.url();

  // The URL is the state: a reload stays on the same organization.
  await page.reload();
  await expect(page).toHaveURL(home);
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();

  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The session is gone for real: the organization page asks to sign in again.
  await page.goto(home);
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});
