import type { Page } from '@playwright/test';
import { makeTestIdp, signInAtIdp, SSO_ROUND_TRIP_MS } from './idp';
import { callApi, expect, newOrganization, newPerson, openOrganization, openSettings, test } from './support';

/** The admin invites these addresses from the members screen, with a role; answers the dialog, still open. */
async function inviteByEmail(page: Page, addresses: string[], role: string) {
  await page.getByRole('button', { name: 'Invite by e-mail' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite by e-mail' });
  await dialog.getByLabel('E-mail addresses').fill(addresses.join('\n'));
  await dialog.getByLabel('Role once they join').selectOption({ label: role });
  await dialog.getByRole('button', { name: 'Send invitations' }).click();
  return dialog;
}

test('invitations by e-mail: one accepted from the account menu, one declined, one revoked', async ({
  page,
  browser,
}) => {
  test.slow();
  // Two people have accounts already, each in their own browser.
  const ivy = await newPerson(browser, 'Ivy Invitee');
  const dan = await newPerson(browser, 'Dan Decliner');
  const organizationId = await newOrganization(page, 'Invitations journey');
  await openOrganization(page, organizationId);
  await openSettings(page, 'Members');
  await expect(page.getByText('Nobody is invited right now')).toBeVisible();

  // A typo is named before anything is sent.
  await page.getByRole('button', { name: 'Invite by e-mail' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite by e-mail' });
  await dialog.getByLabel('E-mail addresses').fill(`${ivy.email}, ivy-at-example.com`);
  await dialog.getByRole('button', { name: 'Send invitations' }).click();
  await expect(dialog.getByText('Not an e-mail address: ivy-at-example.com')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Ivy and Dan are invited as editors (each gets an e-mail; their accounts see the invitation too: their addresses
  // are confirmed).
  const sent = await inviteByEmail(page, [ivy.email, dan.email], 'Editor');
  await expect(sent.getByText('2 people invited.')).toBeVisible();
  await sent.getByRole('button', { name: 'Done' }).click();
  await expect(sent).toBeHidden();
  const invited = page.getByRole('list', { name: 'Invited people' });
  await expect(invited.getByRole('listitem')).toHaveCount(2);
  await expect(invited.getByRole('listitem').filter({ hasText: ivy.email })).toContainText('Editor');
  // Invited people are not members.
  const table = page.getByRole('table', { name: 'Members' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row', { name: /Ivy Invitee/ })).toHaveCount(0);

  // Ivy finds the invitation in her account menu, accepts it, and is in.
  await ivy.page.reload();
  const ivyMenu = ivy.page.getByRole('button', { name: /^Account: Ivy Invitee/ });
  await expect(ivyMenu).toHaveAccessibleName('Account: Ivy Invitee, 1 pending invitation');
  await ivyMenu.click();
  await expect(ivy.page.getByRole('group', { name: 'Invitation to Invitations journey' })).toContainText(
    'as an editor · from',
  );
  await ivy.page.getByRole('menuitem', { name: 'Accept the invitation to Invitations journey' }).click();
  await expect(ivy.page).toHaveURL(new RegExp(`/o/${organizationId}$`));
  await expect(ivy.page.getByText('You joined Invitations journey')).toBeVisible();
  await expect(ivy.page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  await expect(ivy.page.getByRole('button', { name: 'Switch organization' })).toContainText('Invitations journey');
  await expect(ivyMenu).toHaveAccessibleName('Account: Ivy Invitee');

  // The admin sees her among the members, with the role of the invitation, and no longer invited.
  await page.reload();
  await expect(invited.getByRole('listitem')).toHaveCount(1);
  await expect(invited.getByText(ivy.email)).toHaveCount(0);
  await expect(table.getByRole('row', { name: /Ivy Invitee/ })).toBeVisible();
  await expect(table.getByRole('combobox', { name: 'Role of Ivy Invitee' })).toHaveValue('edit');

  // Dan declines his from his account settings, after confirming: no membership comes of it.
  await dan.page.reload();
  await dan.page.getByRole('button', { name: /^Account: Dan Decliner/ }).click();
  await dan.page.getByRole('menuitem', { name: 'Account settings' }).click();
  await expect(dan.page).toHaveURL(/\/account$/);
  const pending = dan.page.getByRole('list', { name: 'Pending invitations' });
  await pending.getByRole('button', { name: 'Decline the invitation to Invitations journey' }).click();
  const decline = dan.page.getByRole('alertdialog', { name: 'Decline invitation?' });
  await expect(decline.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await decline.getByRole('button', { name: 'Decline invitation' }).click();
  await expect(dan.page.getByText('No pending invitations')).toBeVisible();
  await dan.page.goto(`/o/${organizationId}`);
  await expect(dan.page.getByRole('heading', { name: 'Organization not found' })).toBeVisible();
  await page.reload();
  await expect(page.getByText('Nobody is invited right now')).toBeVisible();
  await expect(table.getByRole('row', { name: /Dan Decliner/ })).toHaveCount(0);

  // Invited again, then revoked before he answers: the invitation is gone from his side too.
  const again = await inviteByEmail(page, [dan.email], 'Reader');
  await expect(again.getByText('1 person invited.')).toBeVisible();
  await again.getByRole('button', { name: 'Done' }).click();
  await dan.page.goto('/account');
  await expect(pending.getByRole('listitem')).toHaveCount(1);
  await invited.getByRole('button', { name: `Revoke the invitation of ${dan.email}` }).click();
  await page
    .getByRole('alertdialog', { name: 'Revoke invitation?' })
    .getByRole('button', { name: 'Revoke invitation' })
    .click();
  await expect(page.getByText('Nobody is invited right now')).toBeVisible();
  await dan.page.reload();
  await expect(dan.page.getByText('No pending invitations')).toBeVisible();
  await expect(dan.page.getByRole('button', { name: /^Account: Dan Decliner/ })).toHaveAccessibleName(
    'Account: Dan Decliner',
  );

  await ivy.context.close();
  await dan.context.close();
});

test('an admin adds an e-mail domain, sees the TXT record to publish, and verifies it as the instance owner', async ({
  page,
}) => {
  await openOrganization(page, await newOrganization(page, 'Domains journey'));
  await openSettings(page, 'Settings', 'E-mail domains');
  await expect(page).toHaveURL(/\/settings\/domains$/);
  await expect(page.getByText('No e-mail domain yet')).toBeVisible();
  await expect(page.getByText(/create accounts for addresses at that domain/)).toBeVisible();

  const add = page.getByRole('form', { name: 'Add an e-mail domain' });
  await add.getByLabel('Domain').fill('not a domain');
  await add.getByRole('button', { name: 'Add domain' }).click();
  await expect(add.getByText('Must be a domain name such as example.com')).toBeVisible();
  const domain = `docs-${Date.now()}.example.test`;
  await add.getByLabel('Domain').fill(domain.toUpperCase());
  await add.getByRole('button', { name: 'Add domain' }).click();

  const entry = page.getByRole('listitem', { name: new RegExp(domain) });
  await expect(entry.getByText('Unverified')).toBeVisible();
  await expect(add.getByLabel('Domain')).toHaveValue('');
  await expect(entry.getByRole('textbox', { name: 'TXT record name' })).toHaveValue(`_docspace-challenge.${domain}`);
  await expect(entry.getByRole('textbox', { name: 'TXT record value' })).toHaveValue(
    /^docspace-domain-verification=\S+$/,
  );

  // Nothing is published in DNS for it: the server says what is missing, beside the domain.
  await entry.getByRole('button', { name: `Verify ${domain}` }).click();
  await expect(entry.getByRole('alert')).toContainText(`_docspace-challenge.${domain}`, { timeout: 20_000 });

  // The e2e owner is the instance owner: it vouches for the domain.
  await entry.getByRole('button', { name: 'Verify as instance owner' }).click();
  await expect(entry.getByText('Verified', { exact: true })).toBeVisible();
  await expect(entry.getByText(/vouched for by the instance owner/)).toBeVisible();
  await expect(entry.getByRole('textbox', { name: 'TXT record name' })).toHaveCount(0);
  await page.reload();
  await expect(entry.getByText('Verified', { exact: true })).toBeVisible();

  await entry.getByRole('button', { name: `Remove ${domain}` }).click();
  await page
    .getByRole('alertdialog', { name: `Remove ${domain}?` })
    .getByRole('button', { name: 'Remove domain' })
    .click();
  await expect(page.getByText('No e-mail domain yet')).toBeVisible();
});

test('an admin enforces single sign-on: a member signed in with a password is shown the way in, links the provider and signs in through it', async ({
  page,
  browser,
}) => {
  test.slow();
  const idp = await makeTestIdp();
  const organizationId = await newOrganization(page, 'Enforced SSO journey');
  await callApi(page, 'POST', `/orgs/${organizationId}/saml`, {
    label: 'Corp IdP',
    entityID: idp.entityId,
    ssoURL: idp.ssoURL,
    certificate: idp.cert,
    defaultRole: 'read',
  });
  // Mia has an account with a password, and is a reader here.
  const mia = await newPerson(browser, 'Mia Member');
  const invite = await callApi(page, 'POST', `/orgs/${organizationId}/link-invites`, { role: 'read' });
  await mia.page.goto(`/join/${organizationId}/${invite.id}`);
  await mia.page.getByRole('button', { name: 'Join organization' }).click();
  await expect(mia.page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();

  // The admin turns enforcement on, after reading what it does.
  await openOrganization(page, organizationId);
  await openSettings(page, 'Settings', 'Single sign-on');
  const enforce = page.getByRole('switch', { name: 'Enforce single sign-on' });
  await expect(enforce).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByText(/Admins keep password access/)).toBeVisible();
  await enforce.click();
  const confirm = page.getByRole('alertdialog', { name: 'Enforce single sign-on?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(enforce).toHaveAttribute('aria-checked', 'false');
  await enforce.click();
  await confirm.getByRole('button', { name: 'Enforce single sign-on' }).click();
  await expect(confirm).toBeHidden();
  await expect(enforce).toHaveAttribute('aria-checked', 'true');
  await page.reload();
  await expect(enforce).toHaveAttribute('aria-checked', 'true');

  // Mia, signed in with her password, is shown the way in instead of a generic error.
  await mia.page.reload();
  await expect(mia.page.getByRole('heading', { name: 'Enforced SSO journey requires single sign-on' })).toBeVisible();
  await expect(mia.page.getByRole('link', { name: 'Sign in with Corp IdP' })).toBeVisible();

  // The provider does not know her account yet: she links it from her account settings, with her password.
  await signInAtIdp(mia.context, idp, { email: mia.email, name: 'Mia Member' });
  await mia.page.getByRole('link', { name: 'account settings' }).click();
  const link = mia.page.getByRole('form', { name: 'Link a provider' });
  await link.getByLabel('Identity provider').selectOption({ label: 'Corp IdP (Enforced SSO journey)' });
  await link.getByLabel('Your password').fill('not her password');
  await link.getByRole('button', { name: 'Continue to the provider' }).click();
  await expect(link.getByText('is not your current password')).toBeVisible();
  await link.getByLabel('Your password').fill(mia.password);
  await link.getByRole('button', { name: 'Continue to the provider' }).click();
  // Three hops (identity provider, its form posted to the ACS, the redirect back): more than a click's time.
  await expect(mia.page).toHaveURL(/\/account\?linked=/, { timeout: SSO_ROUND_TRIP_MS });
  await expect(mia.page.getByRole('status').filter({ hasText: 'Corp IdP is linked' })).toBeVisible();
  const linked = mia.page.getByRole('list', { name: 'Linked providers' }).getByRole('listitem', { name: 'Corp IdP' });
  await expect(linked).toContainText('Linked');
  await expect(linked).toContainText(mia.email);
  await expect(linked).toContainText('Enforced SSO journey');

  // Now the provider signs her in, and the organization opens.
  await mia.page.goto(`/o/${organizationId}`);
  await mia.page.getByRole('link', { name: 'Sign in with Corp IdP' }).click();
  await expect(mia.page).toHaveURL(new RegExp(`/o/${organizationId}$`), { timeout: SSO_ROUND_TRIP_MS });
  await expect(mia.page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();

  // Enforcement goes off without a confirmation: nobody loses access.
  await enforce.click();
  await expect(enforce).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByText('Single sign-on is no longer enforced')).toBeVisible();
  await mia.context.close();
});
