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
 * @-mentions without typing markdown: `@` and letters in a comment form suggest the organization's members and teams
 * (the textarea becomes a combobox while the list is open); the keyboard or the mouse inserts the mention's markdown,
 * the posted comment shows it as a chip, and the person mentioned is notified.
 */
test('the owner mentions a member and a team from the picker; the comment shows chips and Bob is notified', async ({
  page,
  browser,
}) => {
  test.slow();
  const organizationId = await newOrganization(page, 'Mentions journey');
  const spaceId = await newSpace(page, organizationId, 'Handbook');
  const pageId = await seedPage(page, spaceId, 'Install', 'Download the installer.');
  const bob = await newMember(browser, page, organizationId, 'Bob Reviewer', 'review');
  const bobId = (await callApi(bob.page, 'GET', '/user')).id as string;
  const team = await callApi(page, 'PUT', `/orgs/${organizationId}/teams`, { title: 'Book club' });
  const number = await changePage(page, spaceId, pageId, 'Download the installer.\n\nRun it once.');
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/change-requests/${number}`);

  // `@Bo` lists Bob first (members before teams), then the team; he is the active option.
  const form = page.getByRole('form', { name: 'New comment on the change request' });
  const text = form.getByRole('textbox', { name: 'Comment' });
  await text.click();
  await text.pressSequentially('Please check the steps, @Bo');
  const combobox = form.getByRole('combobox', { name: 'Comment' });
  await expect(combobox).toHaveAttribute('aria-expanded', 'true');
  const list = form.getByRole('listbox', { name: 'People to mention' });
  const bobOption = list.getByRole('option', { name: /^Bob Reviewer/ });
  const teamOption = list.getByRole('option', { name: /^Book club/ });
  await expect(list.getByRole('option')).toHaveCount(2);
  await expect(list.getByRole('option').first()).toHaveAccessibleName(/^Bob Reviewer bob-.*@example\.com$/);
  await expect(teamOption).toContainText('Team · 0 members');
  await expect(bobOption).toHaveAttribute('aria-selected', 'true');
  await expect(combobox).toHaveAttribute('aria-activedescendant', (await bobOption.getAttribute('id'))!);
  await expect(form.getByRole('status')).toHaveText('2 suggestions to mention: Up and Down choose, Enter inserts.');
  await expectAccessible(page);

  // Down and Up move through the list; Enter inserts Bob, the caret after the space that follows.
  await page.keyboard.press('ArrowDown');
  await expect(teamOption).toHaveAttribute('aria-selected', 'true');
  await expect(combobox).toHaveAttribute('aria-activedescendant', (await teamOption.getAttribute('id'))!);
  await page.keyboard.press('ArrowUp');
  await expect(bobOption).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(list).toHaveCount(0);
  await expect(text).toBeFocused();
  await expect(text).not.toHaveAttribute('aria-expanded');
  const withBob = `Please check the steps, [@Bob Reviewer](/users/${bobId}) `;
  await expect(text).toHaveValue(withBob);
  expect(await text.evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd])).toEqual([
    withBob.length,
    withBob.length,
  ]);

  // A click inserts the team the same way.
  await text.pressSequentially('and @Book');
  await expect(list.getByRole('option')).toHaveCount(1);
  await teamOption.click();
  await expect(text).toBeFocused();
  const withTeam = `${withBob}and [@Book club](/teams/${team.id}) `;
  await expect(text).toHaveValue(withTeam);

  // Escape closes the list, which stays closed while that word is typed: Enter is a new line again.
  await text.pressSequentially('thanks @Bo');
  await expect(bobOption).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await text.pressSequentially('b!');
  await page.keyboard.press('Enter');
  await expect(list).toHaveCount(0);
  await expect(text).toHaveValue(`${withTeam}thanks @Bob!\n`);

  // Posted, the mentions read as chips, not as links to console pages that do not exist.
  await form.getByRole('button', { name: 'Comment' }).click();
  await expect(text).toHaveValue('');
  const thread = page.getByRole('list', { name: 'Open threads' }).getByRole('article', { name: 'Comment by Owner' });
  await expect(thread).toContainText('Please check the steps, @Bob Reviewer and @Book club');
  const chips = thread.locator('.mention');
  await expect(chips).toHaveCount(2);
  await expect(chips.first()).toHaveText('@Bob Reviewer');
  await expect(chips.last()).toHaveText('@Book club (team)');
  await expect(thread.locator('a[href^="/users/"], a[href^="/teams/"]')).toHaveCount(0);
  await expectAccessible(page);

  // Bob is notified of the mention.
  await expect
    .poll(
      async () => {
        const inbox = await callApi(bob.page, 'GET', '/user/notifications');
        return (inbox.items as Array<{ kind: string; excerpt?: string }>).filter((n) => n.kind === 'mention');
      },
      { message: 'Bob’s mention notification', timeout: 30_000 },
    )
    .toEqual([
      expect.objectContaining({ kind: 'mention', excerpt: expect.stringContaining('Please check the steps') }),
    ]);

  // On a phone, a reply's picker fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await thread.getByRole('button', { name: 'Reply' }).click();
  const reply = thread.getByRole('form', { name: 'Reply to Owner' }).getByRole('textbox', { name: 'Reply' });
  await expect(reply).toBeFocused();
  await reply.pressSequentially('@bob');
  const replyList = thread.getByRole('listbox', { name: 'People to mention' });
  await expect(replyList.getByRole('option', { name: /^Bob Reviewer/ })).toBeInViewport();
  const box = (await replyList.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await page.keyboard.press('Tab');
  await expect(reply).toHaveValue(`[@Bob Reviewer](/users/${bobId}) `);
  await expect(reply).toBeFocused();
  await bob.context.close();
});
