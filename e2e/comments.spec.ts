import { callApi, changePage, editPage, expect, newMember, newOrganization, newSpace, seedPage, test } from './support';

/** What another member's screen may take to show a change: the console polls every 3 s; a slow machine adds to it. */
const LIVE = { timeout: 20_000 };

test('two members discuss a block live: comment, reply, react, resolve, filter; an own comment edited and deleted', async ({
  page,
  browser,
}) => {
  // Two browsers, and waits for the 3-second polls.
  test.slow();
  const organizationId = await newOrganization(page, 'Comments journey');
  const spaceId = await newSpace(page, organizationId, 'Handbook');
  const pageId = await seedPage(page, spaceId, 'Install', 'Download the installer.\n\nRun it twice.');
  const colin = await newMember(browser, page, organizationId, 'Colin Commenter', 'comment');
  const number = await changePage(
    page,
    spaceId,
    pageId,
    'Download the installer.\n\nRun it once.\n\nRestart the computer.',
  );
  const reviewUrl = `/o/${organizationId}/spaces/${spaceId}/change-requests/${number}`;

  // Colin opens the review first and keeps it open, never reloading: nothing is commented yet.
  await colin.page.goto(reviewUrl);
  await expect(colin.page.getByRole('heading', { name: 'No comments yet' })).toBeVisible();
  const colinDiff = colin.page.getByRole('table', { name: 'Changes side by side' });
  await expect(colinDiff.getByText('Restart the computer.')).toBeVisible();

  // The owner comments on the block the change request adds, in markdown; the counter follows the typing.
  await page.goto(reviewUrl);
  const diff = page.getByRole('table', { name: 'Changes side by side' });
  const commentButton = diff.getByRole('button', { name: 'Comment on “Restart the computer.”' });
  await commentButton.click();
  const form = diff.getByRole('form', { name: 'New comment on “Restart the computer.”' });
  const text = form.getByRole('textbox', { name: 'Comment' });
  await expect(text).toBeFocused();
  await text.fill('Is a **restart** really needed?');
  await expect(form.getByText('31/10000')).toBeVisible();
  await form.getByRole('button', { name: 'Comment' }).click();
  await expect(form).toBeHidden();
  await expect(commentButton).toBeFocused();
  const ownerGroup = diff.getByRole('region', { name: 'Threads on “Restart the computer.”' });
  const ownerThread = ownerGroup.getByRole('article', { name: 'Comment by Owner' });
  await expect(ownerThread.locator('strong')).toHaveText('restart');
  await expect(page.getByRole('button', { name: 'Open 1' })).toHaveAttribute('aria-pressed', 'true');

  // Colin sees it appear beside the block, and in the thread list with what it is about.
  const colinGroup = colinDiff.getByRole('region', { name: 'Threads on “Restart the computer.”' });
  const thread = colinGroup.getByRole('article', { name: 'Comment by Owner' });
  await expect(thread).toContainText('Is a restart really needed?', LIVE);
  await expect(thread.locator('strong')).toHaveText('restart');
  const colinOpen = colin.page.getByRole('list', { name: 'Open threads' });
  await expect(colinOpen.getByRole('article', { name: 'Comment by Owner' })).toContainText('On Install');
  await expect(colinOpen.getByRole('article', { name: 'Comment by Owner' })).toContainText('Restart the computer.');
  await expect(colin.page.getByRole('heading', { name: 'Comments' })).toContainText('1 open · 0 resolved');
  // Someone else's comment: Colin cannot edit or delete it.
  await expect(thread.getByRole('button', { name: 'Actions for the comment by Owner' })).toHaveCount(0);

  // Colin replies...
  await thread.getByRole('button', { name: 'Reply' }).click();
  const replyForm = thread.getByRole('form', { name: 'Reply to Owner' });
  await expect(replyForm.getByRole('textbox', { name: 'Reply' })).toBeFocused();
  await replyForm.getByRole('textbox', { name: 'Reply' }).fill('Yes: the driver loads at `boot`.');
  await replyForm.getByRole('button', { name: 'Reply' }).click();
  const colinReply = thread.getByRole('list', { name: 'Replies to Owner' }).getByRole('article', {
    name: 'Reply by Colin Commenter',
  });
  await expect(colinReply.locator('code')).toHaveText('boot');
  await expect(replyForm.getByRole('textbox', { name: 'Reply' })).toHaveValue('');

  // ...and reacts from the palette.
  const colinReactions = thread.getByRole('group', { name: 'Reactions to the comment by Owner' });
  await colinReactions.getByRole('button', { name: 'Add a reaction' }).click();
  await colin.page.getByRole('menuitemcheckbox', { name: '👍 Thumbs up' }).click();
  await expect(colinReactions.getByRole('button', { name: '👍 1' })).toHaveAttribute('aria-pressed', 'true');

  // The owner's open screen shows the reply and the reaction; the owner adds a 👍 and, clicking it again, removes it.
  const repliesToggle = ownerThread.getByRole('button', { name: /^1 reply/ });
  await expect(repliesToggle).toContainText('from Colin Commenter', LIVE);
  const ownerReactions = ownerThread.getByRole('group', { name: 'Reactions to the comment by Owner' });
  await expect(ownerReactions.getByRole('button', { name: '👍 1' })).toHaveAttribute('aria-pressed', 'false', LIVE);
  await ownerReactions.getByRole('button', { name: '👍 1' }).click();
  await expect(ownerReactions.getByRole('button', { name: '👍 2' })).toHaveAttribute('aria-pressed', 'true');
  await ownerReactions.getByRole('button', { name: '👍 2' }).click();
  await expect(ownerReactions.getByRole('button', { name: '👍 1' })).toHaveAttribute('aria-pressed', 'false');
  await repliesToggle.click();
  await expect(ownerThread.getByRole('button', { name: 'Hide replies' })).toHaveAttribute('aria-expanded', 'true');
  await expect(ownerThread.getByRole('article', { name: 'Reply by Colin Commenter' })).toContainText(
    'the driver loads at boot',
  );

  // Colin resolves the thread: beside the block it folds away, and the filter shows it under "Resolved" only.
  await thread.getByRole('button', { name: 'Resolve' }).click();
  await expect(colinGroup.getByRole('article')).toHaveCount(0);
  const showResolved = colinGroup.getByRole('button', { name: 'Show 1 resolved thread' });
  await expect(showResolved).toBeVisible();
  await expect(colin.page.getByRole('button', { name: 'Open 0' })).toHaveAttribute('aria-pressed', 'true');
  await expect(colinOpen).toHaveCount(0);
  await expect(colin.page.getByText('No open threads: every comment is resolved.')).toBeVisible();
  await colin.page.getByRole('button', { name: 'Resolved 1' }).click();
  const colinResolved = colin.page.getByRole('list', { name: 'Resolved threads' });
  await expect(colinResolved.getByRole('article', { name: 'Comment by Owner' })).toContainText(
    'Resolved by Colin Commenter',
  );
  await showResolved.click();
  await expect(colinGroup.getByRole('article', { name: 'Comment by Owner' })).toBeVisible();

  // The owner's screen follows without a reload: the thread leaves the open list.
  await expect(page.getByRole('button', { name: 'Resolved 1' })).toBeVisible(LIVE);
  await expect(page.getByRole('list', { name: 'Open threads' })).toHaveCount(0);
  await expect(ownerGroup.getByRole('button', { name: 'Show 1 resolved thread' })).toBeVisible();

  // The owner comments on the whole change request, corrects the comment, then deletes it after confirming.
  const crForm = page.getByRole('form', { name: 'New comment on the change request' });
  await crForm.getByRole('textbox', { name: 'Comment' }).fill('Ready for another look');
  await crForm.getByRole('button', { name: 'Comment' }).click();
  const crThread = page.getByRole('list', { name: 'Open threads' }).getByRole('article', { name: 'Comment by Owner' });
  await expect(crThread).toContainText('On the change request');
  await expect(crForm.getByRole('textbox', { name: 'Comment' })).toHaveValue('');
  await crThread.getByRole('button', { name: 'Actions for the comment by Owner' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = crThread.getByRole('form', { name: 'Edit the comment' });
  await expect(edit.getByRole('textbox', { name: 'Text' })).toHaveValue('Ready for another look');
  await edit.getByRole('textbox', { name: 'Text' }).fill('Ready for _one more_ look');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(crThread.locator('em')).toHaveText('one more');
  await expect(crThread).toContainText('edited');

  await colin.page.getByRole('button', { name: 'Open 1' }).click(LIVE);
  const colinCrThread = colin.page.getByRole('list', { name: 'Open threads' }).getByRole('article');
  await expect(colinCrThread.locator('em')).toHaveText('one more', LIVE);

  await crThread.getByRole('button', { name: 'Actions for the comment by Owner' }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this comment?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(crThread).toBeVisible();
  await crThread.getByRole('button', { name: 'Actions for the comment by Owner' }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  await confirm.getByRole('button', { name: 'Delete comment' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('No open threads: every comment is resolved.')).toBeVisible();
  await expect(colinCrThread).toHaveCount(0, LIVE);
  await expect(colin.page.getByRole('heading', { name: 'Comments' })).toContainText('0 open · 1 resolved');

  // The owner reopens the resolved thread; the change request list counts its open thread.
  await page.getByRole('button', { name: 'Resolved 1' }).click();
  await page
    .getByRole('list', { name: 'Resolved threads' })
    .getByRole('article', { name: 'Comment by Owner' })
    .getByRole('button', { name: 'Reopen' })
    .click();
  await expect(page.getByRole('button', { name: 'Open 1' })).toBeVisible();
  await expect(colin.page.getByRole('button', { name: 'Open 1' })).toBeVisible(LIVE);
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/change-requests`);
  await expect(page.getByText('1 comment', { exact: true })).toBeVisible();
  await colin.context.close();
});

test('page comments, keyboard use, and a thread whose block a later edit removes: outdated, with its text', async ({
  page,
}) => {
  const organizationId = await newOrganization(page, 'Outdated comments journey');
  const spaceId = await newSpace(page, organizationId, 'Manual');
  const pageId = await seedPage(page, spaceId, 'Guide', 'First line.\n\nSecond line.\n\nLast line.');
  const number = await changePage(
    page,
    spaceId,
    pageId,
    'First line.\n\nSecond line, better.\n\nLast line.\n\nThen restart the computer and check the settings.',
  );
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/change-requests/${number}`);
  await expect(page.getByRole('heading', { name: 'No comments yet' })).toBeVisible();

  // The modified block is rendered with its words marked: what it gained on the right (it lost nothing).
  const changedRow = page
    .getByRole('table', { name: 'Changes side by side' })
    .getByRole('row')
    .filter({ hasText: 'Second line' });
  await expect(changedRow.locator('ins')).toHaveText([',', 'better']);
  await expect(changedRow.locator('del')).toHaveCount(0);

  // A comment on the page, from the button of its change.
  await page.getByRole('button', { name: 'Comment on the page Guide' }).click();
  const pageForm = page.getByRole('form', { name: 'New comment on the page Guide' });
  await pageForm.getByRole('textbox', { name: 'Comment' }).fill('Overall fine.');
  await pageForm.getByRole('button', { name: 'Comment' }).click();
  const pageThreads = page.getByRole('region', { name: 'Threads on the page Guide' });
  await expect(pageThreads.getByRole('article', { name: 'Comment by Owner' })).toContainText('Overall fine.');
  await expect(page.getByRole('button', { name: 'Comment on the page Guide' })).toBeFocused();

  // A comment on a block, from the keyboard only; a body over the limit is refused while typing.
  const diff = page.getByRole('table', { name: 'Changes side by side' });
  await diff.getByRole('button', { name: 'Comment on “Then restart the computer and check…”' }).focus();
  await page.keyboard.press('Enter');
  const form = diff.getByRole('form', { name: 'New comment on “Then restart the computer and check…”' });
  const text = form.getByRole('textbox', { name: 'Comment' });
  await expect(text).toBeFocused();
  await text.fill('x'.repeat(10_001));
  await expect(form.getByText('10001/10000')).toBeVisible();
  await expect(form.getByText('Use at most 10000 characters')).toBeVisible();
  await text.fill('Drop this line?');
  await expect(form.getByText('Use at most 10000 characters')).toBeHidden();
  await page.keyboard.press('Control+Enter');
  await expect(form).toBeHidden();
  const blockThreads = diff.getByRole('region', { name: 'Threads on “Then restart the computer and check…”' });
  await expect(blockThreads.getByRole('article', { name: 'Comment by Owner' })).toContainText('Drop this line?');
  // Escape closes an untouched form.
  await diff.getByRole('button', { name: 'Comment on “First line.”' }).click();
  await expect(diff.getByRole('form', { name: 'New comment on “First line.”' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(diff.getByRole('form', { name: 'New comment on “First line.”' })).toBeHidden();
  await expect(diff.getByRole('button', { name: 'Comment on “First line.”' })).toBeFocused();
  await diff.getByRole('button', { name: 'Comment on “Last line.”' }).click();
  const lastForm = diff.getByRole('form', { name: 'New comment on “Last line.”' });
  await lastForm.getByRole('textbox', { name: 'Comment' }).fill('Keep this one.');
  await lastForm.getByRole('button', { name: 'Comment' }).click();
  const lastThreads = diff.getByRole('region', { name: 'Threads on “Last line.”' });
  await expect(lastThreads.getByRole('article', { name: 'Comment by Owner' })).toContainText('Keep this one.');
  await expect(lastThreads.getByText('Outdated', { exact: true })).toHaveCount(0);

  // The change request drops both lines. The thread on the new line, which the diff no longer has, joins the
  // page's threads; the one on "Last line." stays beside it, now removed. Both say "Outdated" and quote their line.
  await editPage(page, spaceId, number, pageId, 'First line.\n\nSecond line, better.');
  await page.reload();
  await expect(diff.getByText('Then restart the computer')).toHaveCount(0);
  const outdated = pageThreads
    .getByRole('article', { name: 'Comment by Owner' })
    .filter({ hasText: 'Drop this line?' });
  await expect(outdated.getByText('Outdated', { exact: true })).toBeVisible();
  await expect(outdated.locator('q')).toHaveText('Then restart the computer and check the settings.');
  const stillThere = pageThreads
    .getByRole('article', { name: 'Comment by Owner' })
    .filter({ hasText: 'Overall fine.' });
  await expect(stillThere.getByText('Outdated', { exact: true })).toHaveCount(0);
  const removed = lastThreads.getByRole('article', { name: 'Comment by Owner' });
  await expect(removed.getByText('Outdated', { exact: true })).toBeVisible();
  await expect(removed.locator('q')).toHaveText('Last line.');
  const listed = page.getByRole('list', { name: 'Open threads' }).getByRole('article');
  await expect(listed).toHaveCount(3);
  await expect(listed.filter({ hasText: 'Drop this line?' }).getByText('Outdated', { exact: true })).toBeVisible();
  // Blocks of the change request's content have a comment button; the removed "Last line." has none.
  await expect(diff.getByRole('cell', { name: 'Removed: Last line.' })).toBeVisible();
  await expect(diff.getByRole('button', { name: /^Comment on/ })).toHaveCount(2);
});

test('comments that fail to load say so, and load on retry', async ({ page }) => {
  const organizationId = await newOrganization(page, 'Failing comments journey');
  const spaceId = await newSpace(page, organizationId, 'Notes');
  const pageId = await seedPage(page, spaceId, 'Note', 'Old.');
  const number = await changePage(page, spaceId, pageId, 'New.');
  await callApi(page, 'POST', `/spaces/${spaceId}/change-requests/${number}/comments`, {
    body: { markdown: 'Written before the outage.' },
  });
  let failing = true;
  await page.route('**/v1/spaces/*/change-requests/*/comments?**', (route) =>
    failing
      ? route.fulfill({ status: 503, json: { error: { code: 503, message: 'The database is busy. Try again.' } } })
      : route.fallback(),
  );
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/change-requests/${number}`);
  const error = page.getByRole('alert').filter({ hasText: 'The comments could not be loaded' });
  await expect(error).toContainText('The database is busy. Try again.', LIVE);
  failing = false;
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('list', { name: 'Open threads' }).getByRole('article')).toContainText(
    'Written before the outage.',
  );
});
