import type { Locator, Page } from '@playwright/test';
import { callApi, expect, newOrganization, seedPage, test } from './support';

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Every image of `scope` has loaded real pixels (a broken image has naturalWidth 0). */
async function expectImagesLoaded(scope: Locator, count: number) {
  const images = scope.locator('img');
  await expect(images).toHaveCount(count);
  for (let i = 0; i < count; i++) {
    await expect
      .poll(() => images.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
  }
}

/** Pastes a PNG file into the focused textarea, as a clipboard holding a screenshot would. */
async function pasteImage(page: Page, textarea: Locator, name: string) {
  await textarea.evaluate(
    (el, { base64, name }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { base64: PNG_BASE64, name },
  );
}

test('images uploaded into a page show in the preview, the review diff, the published site and the history', async ({
  page,
}) => {
  // A long journey (editor, review, site, history) on a shared machine.
  test.setTimeout(180_000);
  const organizationId = await newOrganization(page, 'Files journey');
  const space = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, { title: 'Manual' });
  await seedPage(page, space.id, 'Guide', 'Hello.');
  await page.goto(`/o/${organizationId}/spaces/${space.id}`);
  await page.getByRole('button', { name: 'Edit in a change request' }).click();
  await expect(page).toHaveURL(/\/change-requests\/\d+\/pages\/[^/]+$/);
  const number = Number(/change-requests\/(\d+)\//.exec(page.url())![1]);

  // The button's file input.
  const content = page.getByLabel('Content');
  await content.click();
  await content.press('End');
  await page.getByTestId('editor-file-input').setInputFiles({
    name: 'diagram.png',
    mimeType: 'image/png',
    buffer: Buffer.from(PNG_BASE64, 'base64'),
  });
  await expect(content).toHaveValue(/Hello\.\n\n!\[diagram\.png\]\(\/files\/[\w-]+\)$/);
  const preview = page.getByRole('region', { name: 'Preview' });
  await expectImagesLoaded(preview, 1);

  // A pasted screenshot goes in at the cursor too.
  await content.press('End');
  await pasteImage(page, content, 'screenshot.png');
  await expect(content).toHaveValue(/!\[screenshot\.png\]\(\/files\/[\w-]+\)$/);
  await expectImagesLoaded(preview, 2);

  // A file dropped on the content becomes a link.
  await content.evaluate((el) => {
    const data = new DataTransfer();
    data.items.add(new File(['Some notes.'], 'notes.txt', { type: 'text/plain' }));
    el.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(content).toHaveValue(/\[notes\.txt\]\(\/files\/[\w-]+\)$/);
  await expect(preview.getByRole('link', { name: 'notes.txt' })).toHaveAttribute('href', /\/files\/[\w-]+\/download$/);

  // A file past what one request's JSON holds (1.5 MB) is streamed to the server.
  await page.getByTestId('editor-file-input').setInputFiles({
    name: 'manual.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.alloc(1536 * 1024, 7),
  });
  await expect(content).toHaveValue(/\[manual\.pdf\]\(\/files\/[\w-]+\)$/);
  // An empty one is refused before any upload.
  await page
    .getByTestId('editor-file-input')
    .setInputFiles({ name: 'empty.png', mimeType: 'image/png', buffer: Buffer.alloc(0) });
  await expect(page.getByRole('alert')).toContainText('"empty.png" is empty: there is nothing to upload.');

  // An uploaded image made the page's cover.
  await page.getByText('Layout when published').click();
  await page.getByLabel('Cover').selectOption({ label: 'diagram.png' });

  await page.getByRole('button', { name: 'Save page' }).click();
  await expect(page.getByText('All changes saved')).toBeVisible();

  // The review diff renders the images.
  await page.getByRole('navigation', { name: 'Change request sections' }).getByRole('link', { name: 'Review' }).click();
  await expectImagesLoaded(page.getByRole('table', { name: 'Changes side by side' }), 2);

  // Merged, then published: the live page loads them from the site.
  const merged = await callApi(page, 'POST', `/spaces/${space.id}/change-requests/${number}/merge`);
  const site = await callApi(page, 'POST', `/orgs/${organizationId}/sites`, {
    title: 'Manual site',
    spaces: [space.id],
  });
  await callApi(page, 'POST', `/orgs/${organizationId}/sites/${site.id}/publish`);
  const live = (await callApi(page, 'GET', `/orgs/${organizationId}/sites/${site.id}`)).urls.published as string;
  await page.goto(live);
  await expect(page.getByText('Hello.')).toBeVisible();
  // The cover above the title, and the body's two images.
  await expectImagesLoaded(page.locator('main'), 3);
  await expectImagesLoaded(page.locator('main .page-cover'), 1);

  // The space's history shows the merge and what it changed; the space reads as it was before.
  await page.goto(`/o/${organizationId}/spaces/${space.id}`);
  await page.getByRole('navigation', { name: 'Space sections' }).getByRole('link', { name: 'History' }).click();
  const revisions = page.getByRole('list', { name: 'Revisions, newest first' });
  const latest = revisions.getByRole('listitem').filter({ hasText: `Merged #${number}` });
  await expect(latest).toContainText('Current');
  const changes = latest.getByRole('list', { name: 'What changed' });
  await expect(changes).toContainText('Edited Guide');
  await expect(changes).toContainText('Added file diagram.png');
  await expect(changes).toContainText('Added file notes.txt');
  await expect(revisions.getByRole('listitem').filter({ hasText: 'Merged #1' })).toBeVisible();
  expect(merged.revision).toBeTruthy();
  await latest.getByRole('link', { name: /View the space before/ }).click();
  await expect(page.getByText('You are reading a past revision of this space')).toBeVisible();
  await expect(page.getByText('Hello.')).toBeVisible();
  await expect(page.locator('.page-article img')).toHaveCount(0);
  await page.goBack();
  await latest.getByRole('link', { name: /View the space at this revision/ }).click();
  await expectImagesLoaded(page.locator('.page-article'), 2);
});
