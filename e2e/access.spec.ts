import type { Browser, Page } from '@playwright/test';
import {
  callApi,
  expect,
  expectAccessible,
  newBrowser,
  newOrganization,
  openSettings,
  test,
  uniqueEmail,
} from './support';

/** A new account, signed up in a browser of its own, that joins the organization as a reader. */
async function newReader(browser: Browser, owner: Page, organizationId: string, name: string) {
  const invite = await callApi(owner, 'POST', `/orgs/${organizationId}/link-invites`, { role: 'read' });
  const context = await newBrowser(browser);
  const page = await context.newPage();
  await page.goto('/signup');
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('E-mail').fill(uniqueEmail(name.split(' ')[0]!));
  await page.getByLabel('Password').fill('access-all-areas');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Create your first organization' })).toBeVisible();
  await callApi(page, 'POST', `/orgs/${organizationId}/invites/${invite.id}`);
  const me = await callApi(page, 'GET', '/user');
  return { context, page, id: me.id as string };
}

test('an admin gives a team edit on a collection; its member edits a space in it, and "why" names the grant', async ({
  page,
  browser,
}) => {
  // Two people's browsers and two screens of each: longer than most journeys.
  test.slow();
  const organizationId = await newOrganization(page, 'Access journey');
  // Scaffolding through the API: a reader, a team "Writers" holding them, a collection with a space inside.
  const wren = await newReader(browser, page, organizationId, 'Wren Writer');
  await callApi(page, 'PUT', `/orgs/${organizationId}/teams`, { title: 'Writers', members: [wren.id] });
  const guides = await callApi(page, 'POST', `/orgs/${organizationId}/collections`, { title: 'Guides' });
  const handbook = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, {
    title: 'Handbook',
    parent: guides.id,
  });
  const settings = `/o/${organizationId}/spaces/${handbook.id}/settings`;

  // As a reader, Wren can read the space but not change it.
  await wren.page.goto(settings);
  await expect(wren.page.getByText('You can read this space but not change its settings.')).toBeVisible();
  await expect(wren.page.getByLabel('Title')).toBeDisabled();

  // The admin opens the collection and gives the team Writers "Edit" on it, by clicking.
  await page.goto(`/o/${organizationId}/collections/${guides.id}`);
  const access = page.getByRole('region', { name: 'Access', exact: true });
  await expect(access.getByText('No one has been given access yet')).toBeVisible();
  await expect(access.getByLabel('What members of the organization get on this collection')).toHaveValue('inherit');
  await access.getByRole('combobox', { name: 'Find a member or a team' }).fill('Writ');
  await access.getByRole('option', { name: /Writers/ }).click();
  await access.getByRole('combobox', { name: 'Role to give Writers' }).selectOption({ label: 'Edit' });
  await access.getByRole('button', { name: 'Give access' }).click();
  await expect(page.getByText('The team Writers now has Edit on this collection')).toBeVisible();
  const grants = access.getByRole('list', { name: 'Teams and members with access to this collection' });
  await expect(grants.getByRole('listitem')).toHaveCount(1);
  await expect(grants.getByRole('combobox', { name: 'Role of the team Writers on this collection' })).toHaveValue(
    'edit',
  );
  await expectAccessible(page, '.access-panel');

  // Wren, in the team, can now edit the space in that collection: she renames it.
  await wren.page.reload();
  await expect(wren.page.getByText('You can read this space but not change its settings.')).toHaveCount(0);
  await wren.page.getByLabel('Title').fill('Handbook for writers');
  await wren.page.getByRole('button', { name: 'Save settings' }).click();
  await expect(wren.page.getByText('Space settings saved')).toBeVisible();

  // She asks why she can: the team grant on the collection.
  const because = 'Editor, because the team Writers has Edit on the collection Guides, which contains this space.';
  const wrenAccess = wren.page.getByRole('region', { name: 'Access', exact: true });
  await expect(wrenAccess.getByRole('combobox', { name: 'Pick a member' })).toHaveCount(0);
  await wrenAccess.getByRole('button', { name: 'Why can I see this?' }).click();
  await expect(wrenAccess.getByText(because)).toBeVisible();

  // The admin asks about her on the space: the same answer, and the team's count says it reaches one space.
  await page.goto(settings);
  const spaceAccess = page.getByRole('region', { name: 'Access', exact: true });
  await spaceAccess.getByRole('combobox', { name: 'Pick a member' }).fill('Wren');
  await spaceAccess.getByRole('option', { name: /Wren Writer/ }).click();
  await expect(spaceAccess.getByText(because)).toBeVisible();
  await expect(spaceAccess.getByText(/Reader, because their organization role is Reader/)).toBeVisible();
  await openSettings(page, 'Teams');
  await expect(page.getByText('1 member · 1 space')).toBeVisible();

  // Taking the access away asks first; then Wren is a reader of the space again.
  await page.goto(`/o/${organizationId}/collections/${guides.id}`);
  await access.getByRole('button', { name: 'Remove the access of the team Writers' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove access?' });
  await confirm.getByRole('button', { name: 'Remove access' }).click();
  await expect(page.getByText('Removed the access of the team Writers')).toBeVisible();
  await expect(access.getByText('No one has been given access yet')).toBeVisible();
  await wren.page.reload();
  await expect(wren.page.getByText('You can read this space but not change its settings.')).toBeVisible();

  // The default access, set by clicking: "No access" hides the collection's space from her.
  await access
    .getByLabel('What members of the organization get on this collection')
    .selectOption({ label: 'No access: only the people and teams below' });
  await expect(page.getByText('Default access saved')).toBeVisible();
  await wren.page.reload();
  await expect(wren.page.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await wren.context.close();
});
