import {
  callApi,
  changePage,
  expect,
  expectAccessible,
  newMember,
  newOrganization,
  newSpace,
  seedPage,
  test,
} from './support';

/**
 * Notifications as people meet them: a mention in a change request's comment reaches the other person's bell
 * without a reload (it asks every 10 s), the inbox opens the change request and the bell empties; then they choose
 * how mentions reach them, and the choice stays.
 */
test('a mention in a comment shows in the other person’s inbox within seconds; they open it and choose a digest', async ({
  page,
  browser,
}) => {
  test.slow();
  const organizationId = await newOrganization(page, 'Notifications journey');
  const spaceId = await newSpace(page, organizationId, 'Handbook');
  const pageId = await seedPage(page, spaceId, 'Install', 'Download the installer.');
  const bob = await newMember(browser, page, organizationId, 'Bob Reviewer', 'review');
  const bobId = (await callApi(bob.page, 'GET', '/user')).id as string;
  const number = await changePage(page, spaceId, pageId, 'Download the installer.\n\nRun it once.');

  // Bob has the console open, nothing new.
  await bob.page.goto(`/o/${organizationId}`);
  const bell = bob.page.getByRole('banner').getByRole('link', { name: /^Notifications(, \d+ unread)?$/ });
  await expect(bell).toHaveAccessibleName('Notifications');

  // The owner mentions Bob on the change request.
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/change-requests/${number}`);
  const form = page.getByRole('form', { name: 'New comment on the change request' });
  await form
    .getByRole('textbox', { name: 'Comment' })
    .fill(`[@Bob Reviewer](/users/${bobId}) can you check the steps?`);
  await form.getByRole('button', { name: 'Comment' }).click();
  await expect(page.getByRole('list', { name: 'Open threads' })).toContainText('can you check the steps?');

  // Bob's bell says so without a reload; the inbox opens the change request and the bell empties.
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread', { timeout: 30_000 });
  await bell.click();
  await expect(bob.page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const item = bob.page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(`Owner mentioned you in “#${number}`);
  await expect(item).toContainText('can you check the steps?');
  await expectAccessible(bob.page);
  await item.getByRole('link').click();
  await expect(bob.page).toHaveURL(new RegExp(`/change-requests/${number}$`));
  await expect(bell).toHaveAccessibleName('Notifications');

  // Mentions by daily digest: chosen on the account page, and kept.
  await bob.page.goto('/account');
  const settings = bob.page.locator('section[aria-labelledby="account-notifications-title"]');
  const digest = settings.getByRole('radio', { name: 'Someone mentions me or my team: Daily digest' });
  await digest.check();
  await expect(bob.page.getByText('“Someone mentions me or my team” saved')).toBeVisible();
  await bob.page.reload();
  await expect(digest).toBeChecked();
  await expect(settings.getByRole('radio', { name: 'Someone asks for my review: E-mail at once' })).toBeChecked();
  await expectAccessible(bob.page, 'section[aria-labelledby="account-notifications-title"]');

  // At phone size the inbox reads as a list, the bell stays in reach.
  await bob.page.setViewportSize({ width: 390, height: 844 });
  await bob.page.goto('/inbox');
  await expect(bell).toBeInViewport();
  await expect(item).toBeVisible();
  await bob.context.close();
});

/**
 * "A page you authored": whoever wrote the change request that created a page hears of comments on it. The owner
 * comments on the page in the space's view; its author's bell says so, the inbox opens the page with the thread,
 * and they stop following it from the page.
 */
test('whoever created a page hears of a comment on it, reads it on the page and can stop following', async ({
  page,
  browser,
}) => {
  test.slow();
  const organizationId = await newOrganization(page, 'Page comments journey');
  const spaceId = await newSpace(page, organizationId, 'Handbook');
  const ann = await newMember(browser, page, organizationId, 'Ann Writer', 'create');
  const pageId = await seedPage(ann.page, spaceId, 'Install', 'Download the installer.');
  await ann.page.goto(`/o/${organizationId}`);
  const bell = ann.page.getByRole('banner').getByRole('link', { name: /^Notifications(, \d+ unread)?$/ });
  await expect(bell).toHaveAccessibleName('Notifications');

  // The owner comments on the page where it is read.
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/pages/${pageId}`);
  const form = page.getByRole('form', { name: 'New comment on the page Install' });
  await form.getByRole('textbox', { name: 'Comment' }).fill('Which version should people download?');
  await form.getByRole('button', { name: 'Comment' }).click();
  const threads = page.getByRole('region', { name: 'Threads on the page Install' });
  await expect(threads).toContainText('Which version should people download?');
  await expectAccessible(page);

  // Ann hears of it; the inbox opens the page, with the thread under it.
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread', { timeout: 30_000 });
  await bell.click();
  const item = ann.page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
  await expect(item).toContainText('Owner commented on “Install” in “Handbook”');
  await item.getByRole('link').click();
  await expect(ann.page).toHaveURL(new RegExp(`/pages/${pageId}$`));
  await expect(ann.page.getByRole('region', { name: 'Threads on the page Install' })).toContainText(
    'Which version should people download?',
  );

  // She follows it as its author, and stops; the choice stays.
  const follow = ann.page.getByRole('button', { name: 'Following' });
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  await follow.click();
  await expect(ann.page.getByRole('button', { name: 'Follow', exact: true })).toHaveAttribute('aria-pressed', 'false');
  await ann.page.reload();
  await expect(ann.page.getByRole('button', { name: 'Follow', exact: true })).toHaveAttribute('aria-pressed', 'false');
  await ann.context.close();
});
