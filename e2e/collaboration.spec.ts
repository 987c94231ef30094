import type { Page } from '@playwright/test';
import {
  accessibilityViolations,
  callApi,
  changeRequestPage,
  expect,
  newMember,
  newOrganization,
  newSpace,
  seedPage,
  test,
} from './support';

/** What a co-editor's screen may take to show a change (a second on a quiet machine; more on a loaded one). */
const LIVE = { timeout: 15_000 };

/** Opens a change request's page in the visual editor (the shared one); answers its editable body. */
async function openShared(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('group', { name: 'Editor' }).getByRole('button', { name: 'Visual' }).click();
  await expect(page.locator('.shared-editor-connection')).toHaveText('All changes saved', LIVE);
  return page.getByRole('textbox', { name: 'Content' });
}

/** The text of a body, without the others' cursors. */
function textOf(body: ReturnType<Page['getByRole']>) {
  return body.evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement;
    for (const caret of copy.querySelectorAll('.collab-caret')) caret.remove();
    return copy.innerText;
  });
}

/** Types `text` as a new paragraph at the end of the body. */
async function typeAtEnd(page: Page, body: ReturnType<Page['getByRole']>, text: string) {
  await body.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(text);
}

test('two people edit one page together: each sees the other’s text and cursor, typing offline arrives on return, a reader only watches', async ({
  page,
  browser,
}) => {
  test.slow();
  const organizationId = await newOrganization(page, 'Together journey');
  const spaceId = await newSpace(page, organizationId, 'Handbook');
  const pageId = await seedPage(page, spaceId, 'Guide', 'Shared intro.\n');
  const changeRequest = await callApi(page, 'POST', `/spaces/${spaceId}/change-requests`, { subject: 'Together' });
  const path = `/o/${organizationId}/spaces/${spaceId}/change-requests/${changeRequest.number}/pages/${pageId}`;
  const eddie = await newMember(browser, page, organizationId, 'Eddie Editor', 'edit');

  const mine = await openShared(page, path);
  // Someone who never chose an editor gets the visual one.
  await eddie.page.goto(path);
  await expect(eddie.page.getByRole('button', { name: 'Visual' })).toHaveAttribute('aria-pressed', 'true');
  const theirs = await openShared(eddie.page, path);
  await expect(theirs).toContainText('Shared intro.');

  await typeAtEnd(page, mine, 'Owner was here.');
  await expect(theirs).toContainText('Owner was here.', LIVE);
  await typeAtEnd(eddie.page, theirs, 'Eddie too.');
  await expect(mine).toContainText('Eddie too.', LIVE);
  // Each sees who else is on the page, and where their cursor is.
  await expect(page.getByRole('list', { name: 'Also on this page' })).toContainText('Eddie Editor');
  await expect(mine.locator('.collab-caret-label', { hasText: 'Eddie Editor' })).toBeVisible(LIVE);
  expect(await accessibilityViolations(page, { within: '.page-editor' })).toEqual([]);

  // Eddie loses the connection, types on, and comes back: both end with the same text.
  await eddie.context.setOffline(true);
  await expect(eddie.page.locator('.shared-editor-connection')).toHaveText(/Offline/, LIVE);
  await typeAtEnd(eddie.page, theirs, 'Typed while offline.');
  await typeAtEnd(page, mine, 'Typed meanwhile.');
  await expect(mine).not.toContainText('Typed while offline.');
  await eddie.context.setOffline(false);
  await expect(mine).toContainText('Typed while offline.', LIVE);
  await expect(theirs).toContainText('Typed meanwhile.', LIVE);
  await expect(eddie.page.locator('.shared-editor-connection')).toHaveText('All changes saved', LIVE);
  await expect.poll(() => textOf(theirs), LIVE).toBe(await textOf(mine));

  // The change request's page is written from it, for the API, the review and the merge.
  await expect
    .poll(async () => (await changeRequestPage(page, spaceId, changeRequest.id, pageId)).markdown, LIVE)
    .toMatch(/Shared intro\.[\s\S]*Owner was here\.[\s\S]*Eddie too\.[\s\S]*Typed/);

  // A reader of the change request watches it being written, and cannot type in it.
  const rita = await newMember(browser, page, organizationId, 'Rita Reader', 'read');
  await rita.page.goto(path);
  const watched = rita.page.getByRole('textbox', { name: 'Content' });
  await expect(watched).toContainText('Owner was here.', LIVE);
  await expect(rita.page.locator('.shared-editor-connection')).toHaveText(/Read only/);
  await expect(watched).toHaveAttribute('contenteditable', 'false');
  await typeAtEnd(page, mine, 'Seen by the reader.');
  await expect(watched).toContainText('Seen by the reader.', LIVE);
  await watched.click({ force: true });
  await rita.page.keyboard.type('Reader typing.');
  await expect(watched).not.toContainText('Reader typing.');
  await expect(page.getByRole('list', { name: 'Also on this page' })).toContainText('Rita Reader');
  await eddie.context.close();
  await rita.context.close();
});
