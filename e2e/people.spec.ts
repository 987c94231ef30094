import type { Browser } from '@playwright/test';
import { makeTestIdp, signInAtIdp, SSO_ROUND_TRIP_MS } from './idp';
import {
  callApi,
  expect,
  newBrowser,
  newOrganization,
  openOrganization,
  openSettings,
  test,
  uniqueEmail,
} from './support';

/** A second browser: someone else follows an invite link and creates their account on the way. */
async function joinThroughLink(browser: Browser, url: string, name: string) {
  const context = await newBrowser(browser);
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Join an organization' })).toBeVisible();
  await page.getByLabel('Your name').fill(name);
  const email = uniqueEmail(name);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('long-enough-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  return { context, page, email };
}

test('an admin invites a member through a link, changes their role, and the member can do more, then less', async ({
  page,
  browser,
}) => {
  const organizationId = await newOrganization(page, 'People journey');
  await openOrganization(page, organizationId);

  // The admin creates an invite link for readers and copies its address.
  await openSettings(page, 'Settings', 'Invite links');
  await expect(page.getByRole('link', { name: 'Invite links' })).toHaveAttribute('class', /active/);
  await expect(page.getByText('No invite link')).toBeVisible();
  await page.getByLabel('Role of people who join').selectOption({ label: 'Reader' });
  await page.getByRole('button', { name: 'Create invite link' }).click();
  const link = page.getByRole('textbox', { name: 'Invite link (Reader)' });
  await expect(link).toBeVisible();
  const url = await link.inputValue();
  expect(url).toMatch(new RegExp(`/join/${organizationId}/[^/]+$`));

  // Mia follows it in her own browser: she signs up, joins, and as a reader cannot create spaces.
  const mia = await joinThroughLink(browser, url, 'Mia Member');
  await expect(mia.page).toHaveURL(new RegExp(`/o/${organizationId}$`));
  await expect(mia.page.getByRole('button', { name: 'New space' })).toHaveCount(0);

  // The admin finds her among the members and makes her a creator.
  await openSettings(page, 'Members');
  await page.getByRole('searchbox', { name: 'Search members' }).fill('mia');
  await expect(page).toHaveURL(/search=mia/);
  const table = page.getByRole('table', { name: 'Members' });
  const row = table.getByRole('row', { name: /Mia Member/ });
  await expect(row).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2);
  // Mia's open console told the server she is here: she has been seen, unlike someone who never came.
  await expect(row).not.toContainText('Never');
  await expect(row.getByRole('combobox', { name: 'Role of Mia Member' })).toHaveValue('read');
  await row.getByRole('combobox', { name: 'Role of Mia Member' }).selectOption({ label: 'Creator' });
  await expect(page.getByText('Mia Member is now a creator')).toBeVisible();

  // The search survives a reload.
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search members' })).toHaveValue('mia');
  await expect(row.getByRole('combobox', { name: 'Role of Mia Member' })).toHaveValue('create');

  await mia.page.reload();
  await expect(mia.page.getByRole('button', { name: 'New space' }).first()).toBeVisible();

  // Her details list her spaces and teams.
  await row.getByRole('button', { name: 'Mia Member', exact: true }).click();
  const details = page.getByRole('dialog', { name: 'Mia Member' });
  await expect(details.getByText('Creator')).toBeVisible();
  await expect(details.getByText('In no team.')).toBeVisible();
  await expect(page).toHaveURL(/member=/);
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();

  // Back to reader: the button goes away again.
  await row.getByRole('combobox', { name: 'Role of Mia Member' }).selectOption({ label: 'Reader' });
  await expect(page.getByText('Mia Member is now a reader')).toBeVisible();
  await mia.page.reload();
  await expect(mia.page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  await expect(mia.page.getByRole('button', { name: 'New space' })).toHaveCount(0);

  // Removed, she loses access at once.
  await row.getByRole('button', { name: 'Remove Mia Member' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove member?' });
  await confirm.getByRole('button', { name: 'Remove member' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('No member matches')).toBeVisible();
  await mia.page.reload();
  await expect(mia.page.getByRole('heading', { name: 'Organization not found' })).toBeVisible();
  await mia.context.close();
});

test('an admin creates a team and adds a member by name, then makes them its owner', async ({ page, browser }) => {
  const organizationId = await newOrganization(page, 'Team journey');
  const invite = await callApi(page, 'POST', `/orgs/${organizationId}/link-invites`, { role: 'edit' });
  const tom = await joinThroughLink(browser, `/join/${organizationId}/${invite.id}`, 'Tom Teammate');
  await openOrganization(page, organizationId);

  await openSettings(page, 'Teams');
  await expect(page.getByText('No teams yet')).toBeVisible();
  await page.getByRole('button', { name: 'New team' }).click();
  const dialog = page.getByRole('dialog', { name: 'New team' });
  await dialog.getByLabel('Title').fill('Writers');
  await expect(dialog.getByText('7/64')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create team' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Writers' })).toBeVisible();
  await expect(page.getByText('Nobody in this team yet')).toBeVisible();

  // Added by typing part of the name and picking the suggestion with the keyboard.
  const picker = page.getByRole('combobox', { name: 'Add a member by name or e-mail' });
  await picker.fill('Tom');
  await expect(page.getByRole('option', { name: /Tom Teammate/ })).toBeVisible();
  await picker.press('ArrowDown');
  await picker.press('Enter');
  await expect(page.getByText('Tom Teammate added to the team')).toBeVisible();
  const members = page.getByRole('list', { name: 'Team members' });
  await expect(members.getByRole('listitem')).toHaveCount(1);
  await members.getByRole('combobox', { name: 'Team role of Tom Teammate' }).selectOption('owner');
  await expect(page.getByText('Tom Teammate is now an owner of the team')).toBeVisible();

  // The team list says so, and filters by title in the URL.
  await page.reload();
  await expect(members.getByRole('combobox', { name: 'Team role of Tom Teammate' })).toHaveValue('owner');
  await page.getByRole('link', { name: 'Teams', exact: true }).first().click();
  await expect(page.getByRole('list', { name: 'Teams' }).getByText('1 member · 0 spaces')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Filter teams by title' }).fill('nothing like it');
  await expect(page.getByText('No team matches')).toBeVisible();
  await expect(page).toHaveURL(/title=nothing/);

  // Tom, an owner, manages his team without being an admin.
  await tom.page.goto(`/o/${organizationId}/settings/teams`);
  await tom.page.getByRole('link', { name: 'Writers' }).click();
  await expect(tom.page.getByRole('button', { name: 'Rename' })).toBeVisible();
  await tom.context.close();
});

test('an admin sets up a SAML provider, then someone of a verified domain signs in through it from the sign-in page', async ({
  page,
  browser,
}) => {
  test.slow();
  const idp = await makeTestIdp();
  const organizationId = await newOrganization(page, 'SSO journey');
  // Its provider may create accounts only for addresses of a verified domain: the instance owner vouches for one.
  const domain = `sso-${Date.now()}.example.test`;
  await callApi(page, 'POST', `/orgs/${organizationId}/email-domains`, { domain });
  await callApi(page, 'POST', `/orgs/${organizationId}/email-domains/${domain}/verify`, { method: 'owner' });

  // The admin adds the identity provider in the console.
  await openOrganization(page, organizationId);
  await openSettings(page, 'Settings', 'Single sign-on');
  await expect(page.getByText('No single sign-on yet')).toBeVisible();
  await page.getByRole('button', { name: 'New SAML provider' }).click();
  const dialog = page.getByRole('dialog', { name: 'New SAML provider' });
  await dialog.getByLabel('Label').fill('Test IdP');
  await dialog.getByLabel('Identity provider entity id').fill(idp.entityId);
  await dialog.getByLabel('Sign-in URL (SSO URL)').fill(idp.ssoURL);
  // A certificate that is not PEM is caught before anything is sent.
  const certificate = dialog.getByLabel('Signing certificate (PEM)');
  await certificate.fill('MIIC not a pem');
  await certificate.blur();
  await expect(dialog.getByText(/Must be a PEM X\.509 certificate/)).toBeVisible();
  await certificate.fill('-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----');
  await expect(dialog.getByText(/is not base64/)).toBeVisible();
  // A PEM that does not parse is refused by the server, beside the field.
  await certificate.fill('-----BEGIN CERTIFICATE-----\nMIIBAAAA\n-----END CERTIFICATE-----');
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog.getByText(/not a valid PEM X\.509 certificate/)).toBeVisible();
  await certificate.fill(idp.cert);
  await dialog.getByLabel('Role of people who join').selectOption({ label: 'Editor' });
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog).toBeHidden();

  const provider = page.getByRole('listitem', { name: /Test IdP/ });
  await expect(provider.getByText('Pending: nobody signed in yet')).toBeVisible();
  const acsURL = await provider.getByRole('textbox', { name: 'ACS URL (reply URL)' }).inputValue();
  const audience = await provider.getByRole('textbox', { name: 'Entity id (audience)' }).inputValue();
  expect(acsURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/sso\/saml\/[^/]+\/acs$/);
  await expect(provider.getByRole('textbox', { name: 'Start URL (sign-in link)' })).toHaveValue(/\/start$/);

  // Someone signed out starts from the sign-in page, with their work address; the identity provider knows them.
  const email = uniqueEmail('sam', domain);
  const context = await newBrowser(browser);
  await signInAtIdp(context, idp, { email, name: 'Sam Saml' });
  const sam = await context.newPage();
  await sam.goto('/login');
  await sam.getByRole('link', { name: 'Sign in with SSO' }).click();
  await expect(sam).toHaveURL(/method=sso/);
  const work = sam.getByRole('textbox', { name: 'Work e-mail' });
  // An address of a domain no organization verified finds nothing, and says so.
  await work.fill('sam@elsewhere.example.test');
  await sam.getByRole('button', { name: 'Continue' }).click();
  await expect(
    sam.getByText('No organization offers single sign-on for addresses at elsewhere.example.test'),
  ).toBeVisible();
  await work.fill(email);
  await sam.getByRole('button', { name: 'Continue' }).click();
  const choice = sam
    .getByRole('list', { name: 'Identity providers' })
    .getByRole('link', { name: /Sign in with Test IdP/ });
  await expect(choice).toContainText('SSO journey');
  await choice.click();

  // The identity provider received an AuthnRequest from this server; its answer created Sam's account.
  await expect(sam).toHaveURL(new RegExp(`/o/${organizationId}$`), { timeout: SSO_ROUND_TRIP_MS });
  await expect(sam.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  await expect(sam.getByRole('button', { name: 'Account: Sam Saml' })).toBeVisible();
  expect(idp.requests).toHaveLength(1);
  expect(idp.requests[0]).toContain('AuthnRequest');
  expect(idp.requests[0]).toContain(audience);
  expect(idp.requests[0]).toContain(acsURL);
  // As an editor, Sam cannot create spaces.
  await expect(sam.getByRole('button', { name: 'New space' })).toHaveCount(0);
  // His account settings say the provider created his account.
  await sam.goto('/account');
  const identity = sam.getByRole('list', { name: 'Linked providers' }).getByRole('listitem', { name: 'Test IdP' });
  await expect(identity).toContainText('Created your account');
  await expect(identity).toContainText(email);
  await context.close();

  // The provider is active, and Sam is a member marked SSO, with the provider's role.
  await page.reload();
  await expect(provider.getByText('Active')).toBeVisible();
  await page
    .getByRole('navigation', { name: /sections$/ })
    .getByRole('link', { name: 'Members' })
    .click();
  const row = page.getByRole('table', { name: 'Members' }).getByRole('row', { name: /Sam Saml/ });
  await expect(row.getByText('SSO', { exact: true })).toBeVisible();
  await expect(row.getByRole('combobox', { name: 'Role of Sam Saml' })).toHaveValue('edit');
});

test('an admin sets up translations: title and languages, edited, then deleted', async ({ page }) => {
  await openOrganization(page, await newOrganization(page, 'Translations journey'));
  await openSettings(page, 'Settings');
  await page
    .getByRole('navigation', { name: 'Organization settings' })
    .getByRole('link', { name: 'Translations' })
    .click();
  await expect(page.getByText('No translations yet')).toBeVisible();

  await page.getByRole('button', { name: 'New translation' }).click();
  const dialog = page.getByRole('dialog', { name: 'New translation' });
  await dialog.getByLabel('Title').fill('Docs abroad');
  await expect(dialog.getByText('11/128')).toBeVisible();
  await dialog.getByRole('checkbox', { name: /French/ }).check();
  await dialog.getByRole('checkbox', { name: /^German/ }).check();
  await expect(dialog.getByText('2 chosen: fr, de')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create translation' }).click();
  await expect(dialog).toBeHidden();
  const list = page.getByRole('list', { name: 'Translations' });
  await expect(list.getByText('French, German')).toBeVisible();

  await page.reload();
  await list.getByRole('button', { name: 'Edit Docs abroad' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Docs abroad' });
  await edit.getByRole('checkbox', { name: /French/ }).uncheck();
  await edit.getByRole('checkbox', { name: /Japanese/ }).check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(list.getByText('German, Japanese')).toBeVisible();

  await list.getByRole('button', { name: 'Delete Docs abroad' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete translation?' })
    .getByRole('button', { name: 'Delete translation' })
    .click();
  await expect(page.getByText('No translations yet')).toBeVisible();
});
