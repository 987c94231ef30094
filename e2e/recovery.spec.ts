import { expect, expectAccessible, newBrowser, newPerson, test, waitForMail } from './support';

/**
 * "Forgot your password?" as a person meets it: the link arrives by e-mail (read from the journeys' mailbox, a real
 * SMTP server), opens a page that says whose account it is, sets the new password and signs in; the browser that
 * was signed in before is signed out, and the link does not work twice. Then the instance owner finds the message
 * in the outbox.
 */
test('someone who forgot their password gets a link by e-mail, sets a new one, and the owner sees it in the outbox', async ({
  browser,
  page: ownerPage,
}) => {
  test.slow();
  // Signed in somewhere (say, another laptop) before forgetting the password.
  const { context: before, page: elsewhere, email } = await newPerson(browser, 'Rosa Reset');

  const context = await newBrowser(browser);
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'If an account uses' })).toContainText(
    `If an account uses ${email}, we sent it a link`,
  );

  const mail = await waitForMail(email, 'Reset your password');
  const link = /(http\S+\/reset-password#\S+)/.exec(mail.text)?.[1];
  expect(link, mail.text).toBeTruthy();
  expect(mail.html).toContain('Choose a new password');

  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByText(`For the account ${email[0]}•••@example.com.`)).toBeVisible();
  // The secret left the address bar once read.
  expect(new URL(page.url()).hash).toBe('');
  await expectAccessible(page);
  await page.getByLabel('New password', { exact: true }).fill('a-whole-new-password');
  await page.getByLabel('New password again').fill('not-the-same-password');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByText('The two passwords are not the same.')).toBeVisible();
  await page.getByLabel('New password again').fill('a-whole-new-password');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByRole('button', { name: /^Account: Rosa Reset/ })).toBeVisible();
  await expect(page.getByText(/Your password was reset\. One session was signed out\./)).toBeVisible();

  // The other browser is signed out: its next look at the server sends it to the sign-in page.
  await elsewhere.reload();
  await expect(elsewhere).toHaveURL(/\/login/);
  await before.close();
  await waitForMail(email, 'Your password was reset');

  // The link works once.
  const again = await newBrowser(browser);
  const second = await again.newPage();
  await second.goto(link!);
  await expect(second.getByRole('heading', { name: 'This link no longer works' })).toBeVisible();
  await expect(second.getByRole('link', { name: 'Send me a new link' })).toBeVisible();
  // Phone size: the form fits.
  await second.setViewportSize({ width: 390, height: 844 });
  await second.goto('/forgot-password');
  await expect(second.getByRole('button', { name: 'Send me a link' })).toBeInViewport();
  await again.close();
  await context.close();

  // The owner's outbox lists the three messages (sign-up's confirmation, the link, the notice) as sent; a security
  // message's content is not kept once sent.
  await ownerPage.goto('/');
  await ownerPage.getByRole('button', { name: /^Account: / }).click();
  await ownerPage.getByRole('menuitem', { name: 'Outbox' }).click();
  await expect(ownerPage.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
  await expect(ownerPage.getByText(/Mail goes out through 127\.0\.0\.1:\d+/)).toBeVisible();
  await ownerPage.getByLabel('Recipient').fill(email);
  await ownerPage.getByRole('button', { name: 'Filter' }).click();
  const table = ownerPage.getByRole('table', { name: 'Messages' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row', { name: /Confirm your e-mail address/ })).toContainText('Sent');
  const row = table.getByRole('row', { name: /Reset your password/ });
  await expect(row).toContainText('Sent');
  await expectAccessible(ownerPage);
  await row.getByRole('button', { name: 'Reset your password' }).click();
  const dialog = ownerPage.getByRole('dialog', { name: 'Reset your password' });
  await expect(dialog.getByText(/security messages \(password resets\) are forgotten once sent/)).toBeVisible();
  await expect(dialog).toContainText(email);
  await expectAccessible(ownerPage, '[role="dialog"]');
});
