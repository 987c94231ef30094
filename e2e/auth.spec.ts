import { expect, OWNER, signIn, SIGNED_OUT, test, uniqueEmail } from './support';

// These journeys are about signing in, up and out: their browser starts signed out, and signs in with the form.
test.use({ storageState: SIGNED_OUT });

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

test('signing up creates the account and signs it in; the first organization comes from the welcome page', async ({
  page,
}) => {
  await page.goto('/signup');
  await page.getByLabel('Your name').fill('Ada Lovelace');
  await expect(page.getByText('12/100')).toBeVisible();
  await page.getByLabel('E-mail').fill(uniqueEmail('ada'));
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Use at least 8 characters')).toBeVisible();
  await page.getByLabel('Password').fill('analytical-engine');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page.getByRole('heading', { name: 'Create your first organization' })).toBeVisible();
  await page.getByRole('button', { name: 'New organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'New organization' });
  await dialog.getByLabel('Name').fill('Analytical');
  await dialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(page).toHaveURL(/\/o\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account: Ada Lovelace' })).toBeVisible();
});

test('when the server has sign-up closed, the sign-up page says so', async ({ page }) => {
  // The journeys' server has sign-up open; this answer is the one a SIGNUP=closed server gives.
  await page.route('**/v1/auth/signup', (route) =>
    route.fulfill({
      status: 403,
      json: { error: { code: 403, message: 'Sign-up is closed on this server: ask an administrator to invite you' } },
    }),
  );
  await page.goto('/signup');
  await page.getByLabel('Your name').fill('Late Comer');
  await page.getByLabel('E-mail').fill('late@example.com');
  await page.getByLabel('Password').fill('long-enough-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert')).toContainText('Sign-up is closed on this server');
  await expect(page.getByRole('button', { name: 'Create account' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
});

test('when the sign-in rules cannot be downloaded, submitting says so instead of doing nothing', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // The connection drops: the code the form loads when typing (zod and the contract) cannot be downloaded.
  await page.route('**/assets/*.js', (route) => route.abort('internetdisconnected'));
  await page.getByLabel('E-mail').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('Reload the page and try again');
  await expect(page).toHaveURL(/\/login$/);

  await page.unroute('**/assets/*.js');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
});
