import type { Browser, Page } from '@playwright/test';
import { callApi, createOrganization, expect, signIn, test } from './support';

/** Opens one tab of the organization's people and settings area from the sidebar. */
async function openSettings(page: Page, entry: 'Members' | 'Teams' | 'Settings') {
  await page
    .getByRole('navigation', { name: /sections$/ })
    .getByRole('link', { name: entry })
    .click();
}

/** A second browser: someone else follows an invite link and creates their account on the way. */
async function joinThroughLink(browser: Browser, url: string, name: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Join an organization' })).toBeVisible();
  await page.getByLabel('Your name').fill(name);
  const email = `${name.toLowerCase().replace(/\s+/g, '.')}-${Date.now()}@example.com`;
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
  await signIn(page);
  const organizationId = await createOrganization(page, 'People journey');

  // The admin creates an invite link for readers and copies its address.
  await openSettings(page, 'Settings');
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
  await signIn(page);
  const organizationId = await createOrganization(page, 'Team journey');
  const invite = await callApi(page, 'POST', `/orgs/${organizationId}/link-invites`, { role: 'edit' });
  const tom = await joinThroughLink(browser, `/join/${organizationId}/${invite.id}`, 'Tom Teammate');

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
