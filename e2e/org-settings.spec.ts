import type { Page } from '@playwright/test';
import {
  callApi,
  expect as baseExpect,
  expectAccessible,
  newBrowser,
  newOrganization,
  newPerson,
  openOrganization,
  openSettings,
  test,
  uniqueEmail,
  waitForMail,
} from './support';

// Sign-ups, sign-ins and deletions each end on a new page: on a loaded machine they take longer than other steps.
const expect = baseExpect.configure({ timeout: 30_000 });

/** The General tab's form. */
function settingsForm(page: Page) {
  return page.getByRole('form', { name: 'Organization settings' });
}

test('an admin renames the organization and turns invite links off and on; a reader and a guest see it read-only', async ({
  page,
  browser,
}) => {
  test.slow();
  const organizationId = await newOrganization(page, 'Settings journey');
  await openOrganization(page, organizationId);

  // "Settings" opens General.
  await openSettings(page, 'Settings');
  await expect(page).toHaveURL(new RegExp(`/o/${organizationId}/settings/general$`));
  const tabs = page.getByRole('navigation', { name: 'Organization settings' });
  await expect(tabs.getByRole('link', { name: 'General' })).toHaveAttribute('class', /active/);
  const form = settingsForm(page);
  await expect(form.getByLabel('Name')).toHaveValue('Settings journey');
  const inviteLinks = form.getByRole('switch', { name: 'Invite links' });
  await expect(inviteLinks).toHaveAttribute('aria-checked', 'true');
  await expect(form.getByRole('button', { name: 'Save settings' })).toBeDisabled();

  // A name too short is named before anything is sent.
  await form.getByLabel('Name').fill('S');
  await expect(form.getByText('Use at least 2 characters')).toBeVisible();

  // Renamed, with invite links off and commenters by default.
  await form.getByLabel('Name').fill('Renamed journey');
  await inviteLinks.click();
  await expect(inviteLinks).toHaveAttribute('aria-checked', 'false');
  await form.getByLabel('Default role').selectOption({ label: 'Commenter' });
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Organization settings saved')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Renamed journey sections' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Switch organization' })).toContainText('Renamed journey');

  // It persists.
  await page.reload();
  await expect(settingsForm(page).getByLabel('Name')).toHaveValue('Renamed journey');
  await expect(settingsForm(page).getByRole('switch', { name: 'Invite links' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await expect(settingsForm(page).getByLabel('Default role')).toHaveValue('comment');
  const stored = await callApi(page, 'GET', `/orgs/${organizationId}`);
  expect(stored).toMatchObject({ title: 'Renamed journey', inviteLinks: false, defaultRole: 'comment' });

  // With links off, the Invite links tab says so and offers no new link.
  await tabs.getByRole('link', { name: 'Invite links' }).click();
  await expect(page.getByText(/Invite links are turned off/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create invite link' })).toHaveCount(0);
  await page.getByRole('link', { name: 'General settings' }).click();

  // Turned on again, and a link made for readers.
  await settingsForm(page).getByRole('switch', { name: 'Invite links' }).click();
  await settingsForm(page).getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Organization settings saved')).toBeVisible();
  await page.reload();
  await expect(settingsForm(page).getByRole('switch', { name: 'Invite links' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  const link = await callApi(page, 'POST', `/orgs/${organizationId}/link-invites`, { role: 'read' });

  // The join page says where the link leads and with which role, before anyone signs up.
  const reader = await newBrowser(browser);
  const readerPage = await reader.newPage();
  await readerPage.goto(`/join/${organizationId}/${link.id}`);
  await expect(readerPage.getByRole('status').filter({ hasText: 'You are invited to join' })).toHaveText(
    /You are invited to join Renamed journey as a reader\./,
  );
  await readerPage.getByLabel('Your name').fill('Rita Reader');
  await readerPage.getByLabel('E-mail').fill(uniqueEmail('rita'));
  await readerPage.getByLabel('Password').fill('long-enough-password');
  await readerPage.getByRole('button', { name: 'Create account' }).click();
  await expect(readerPage.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();

  // A reader's Settings is General, read-only, without the delete button; no tab of theirs says "No access".
  await openSettings(readerPage, 'Settings');
  await expect(readerPage).toHaveURL(new RegExp(`/settings/general$`));
  const readOnly = settingsForm(readerPage);
  await expect(readOnly.getByText('Only administrators of Renamed journey can change these settings.')).toBeVisible();
  await expect(readOnly.getByLabel('Name')).toBeDisabled();
  await expect(readOnly.getByRole('switch', { name: 'Invite links' })).toBeDisabled();
  await expect(readOnly.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
  await expect(readerPage.getByRole('button', { name: /Delete organization/ })).toHaveCount(0);
  const readerTabs = readerPage.getByRole('navigation', { name: 'Organization settings' });
  await expect(readerTabs.getByRole('link')).toHaveText(['General', 'Members', 'Teams', 'Translations']);
  for (const name of ['Members', 'Teams', 'Translations']) {
    await readerTabs.getByRole('link', { name }).click();
    await expect(readerTabs.getByRole('link', { name })).toHaveAttribute('class', /active/);
    await expect(readerPage.getByText('No access')).toHaveCount(0);
  }
  await reader.close();

  // A guest's sidebar holds only what a guest may open, and their Settings is General alone.
  const guestLink = await callApi(page, 'POST', `/orgs/${organizationId}/link-invites`, { role: null });
  const guest = await newBrowser(browser);
  const guestPage = await guest.newPage();
  await guestPage.goto(`/join/${organizationId}/${guestLink.id}`);
  await expect(guestPage.getByText(/You are invited to join Renamed journey as a guest\./)).toBeVisible();
  await guestPage.getByLabel('Your name').fill('Gus Guest');
  await guestPage.getByLabel('E-mail').fill(uniqueEmail('gus'));
  await guestPage.getByLabel('Password').fill('long-enough-password');
  await guestPage.getByRole('button', { name: 'Create account' }).click();
  const sidebar = guestPage.getByRole('navigation', { name: 'Renamed journey sections' });
  await expect(sidebar.getByRole('link')).toHaveText(['Content', 'Trash', 'Settings']);
  for (const name of ['Trash', 'Settings']) {
    await sidebar.getByRole('link', { name }).click();
    await expect(sidebar.getByRole('link', { name })).toHaveAttribute('class', /active/);
    await expect(guestPage.getByText('No access')).toHaveCount(0);
  }
  await expect(guestPage.getByRole('navigation', { name: 'Organization settings' }).getByRole('link')).toHaveText([
    'General',
  ]);
  await expect(settingsForm(guestPage).getByLabel('Name')).toBeDisabled();
  // Typing the address of a tab that is not for a guest says whom it is for, and leads back to the content.
  await guestPage.goto(`/o/${organizationId}/settings/members`);
  await expect(guestPage.getByRole('heading', { name: 'Members is for Renamed journey’s members' })).toBeVisible();
  await expect(guestPage.getByText('You are a guest of the organization')).toBeVisible();
  await expect(guestPage.getByText('No access')).toHaveCount(0);
  await guestPage.goto(`/o/${organizationId}/settings/sso`);
  await expect(
    guestPage.getByRole('heading', { name: 'Single sign-on is for Renamed journey’s admins' }),
  ).toBeVisible();
  await guestPage.getByRole('link', { name: 'Go to the organization’s content' }).click();
  await expect(guestPage.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  await guest.close();
});

test('an admin invites a newcomer by e-mail: the mail opens the invitation, they sign up from it and are a member', async ({
  page,
  browser,
}) => {
  test.slow();
  const organizationId = await newOrganization(page, 'Invite journey');
  await openOrganization(page, organizationId);
  await openSettings(page, 'Members');

  // The address has no account yet: the invitation is mailed all the same.
  const address = uniqueEmail('nora.newcomer');
  await page.getByRole('button', { name: 'Invite by e-mail' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite by e-mail' });
  await dialog.getByLabel('E-mail addresses').fill(address);
  await dialog.getByLabel('Role once they join').selectOption({ label: 'Reviewer' });
  await dialog.getByRole('button', { name: 'Send invitations' }).click();
  await expect(dialog.getByText('1 person invited.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  const invited = page.getByRole('list', { name: 'Invited people' });
  const item = invited.getByRole('listitem').filter({ hasText: address });
  await expect(item).toContainText('Reviewer');
  await expect(item).toContainText('expires in 2 weeks');

  // The mail's link opens the invitation; Nora creates her account from it, with the invited address.
  const mail = await waitForMail(address, /invited you to Invite journey/);
  const link = /(http\S+\/invitations\/\S+)/.exec(mail.text)?.[1];
  expect(link, mail.text).toBeTruthy();
  const nora = await newBrowser(browser);
  const noraPage = await nora.newPage();
  await noraPage.goto(link!);
  await expect(noraPage.getByText(`invited ${address} to join Invite journey as a reviewer`)).toBeVisible();
  await expect(noraPage.getByLabel('E-mail')).toHaveValue(address);
  await expect(noraPage.getByLabel('E-mail')).not.toBeEditable();
  await expectAccessible(noraPage);
  await noraPage.getByLabel('Your name').fill('Nora Newcomer');
  await noraPage.getByLabel('Password').fill('long-enough-password');
  await noraPage.getByRole('button', { name: 'Create account' }).click();
  await expect(noraPage).toHaveURL(new RegExp(`/o/${organizationId}$`));
  await expect(noraPage.getByText('You joined the organization')).toBeVisible();
  // Her address counts as confirmed: the link came to her mailbox.
  expect((await callApi(noraPage, 'GET', '/user')).emailVerified).toBe(true);

  // She is among the members, as a reviewer, and no longer invited; the link does not work twice.
  await page.reload();
  const row = page.getByRole('table', { name: 'Members' }).getByRole('row', { name: /Nora Newcomer/ });
  await expect(row.getByRole('combobox', { name: 'Role of Nora Newcomer' })).toHaveValue('review');
  await expect(invited).toHaveCount(0);
  await expect(page.getByText('Nobody is invited right now')).toBeVisible();
  await noraPage.goto(link!);
  await expect(noraPage.getByText('This invitation does not work any more')).toBeVisible();
  await nora.close();
});

test('an admin deletes an organization after typing its name; with none left, the console offers to create one', async ({
  page,
  browser,
}) => {
  test.slow();
  const organizationId = await newOrganization(page, 'Doomed journey');
  await openOrganization(page, organizationId);
  await openSettings(page, 'Settings');
  await page.getByRole('button', { name: 'Delete organization…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete this organization?' });
  const confirm = dialog.getByRole('button', { name: 'Delete organization' });
  const typed = dialog.getByLabel('Name of the organization');
  await expect(typed).toBeFocused();
  await expect(confirm).toBeDisabled();
  await typed.fill('doomed journey');
  await expect(confirm).toBeDisabled();
  await typed.press('Enter');
  await expect(dialog).toBeVisible();
  // Cancel leaves everything as it was.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await callApi(page, 'GET', `/orgs/${organizationId}`)).title).toBe('Doomed journey');

  await page.getByRole('button', { name: 'Delete organization…' }).click();
  await expect(typed).toHaveValue('');
  await typed.fill('Doomed journey');
  await confirm.click();
  // The owner has other organizations: the console opens one of them.
  await expect(page.getByText('Doomed journey was deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/o\/[^/]+$/);
  expect(page.url()).not.toContain(organizationId);
  await page.getByRole('button', { name: 'Switch organization' }).click();
  await expect(page.getByRole('menuitem', { name: /Doomed journey/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  const gone = await page.request.get(`/v1/orgs/${organizationId}`);
  expect(gone.status()).toBe(404);

  // Someone whose only organization it was lands on the screen that creates one.
  const solo = await newPerson(browser, 'Solo Founder');
  await expect(solo.page.getByRole('heading', { name: 'Create your first organization' })).toBeVisible();
  await solo.page.getByRole('button', { name: 'New organization' }).click();
  const create = solo.page.getByRole('dialog', { name: 'New organization' });
  await create.getByLabel('Name').fill('Short-lived');
  await create.getByRole('button', { name: 'Create organization' }).click();
  await expect(solo.page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  await openSettings(solo.page, 'Settings');
  await solo.page.getByRole('button', { name: 'Delete organization…' }).click();
  const soloDialog = solo.page.getByRole('alertdialog', { name: 'Delete this organization?' });
  await soloDialog.getByLabel('Name of the organization').fill('Short-lived');
  await soloDialog.getByRole('button', { name: 'Delete organization' }).click();
  await expect(solo.page.getByRole('heading', { name: 'Create your first organization' })).toBeVisible();
  await expect(solo.page.getByText('Short-lived was deleted')).toBeVisible();
  // The account itself is intact.
  expect((await solo.page.request.get('/v1/user')).status()).toBe(200);
  await solo.context.close();
});
