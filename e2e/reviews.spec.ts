import { readFile } from 'node:fs/promises';
import { callApi, expect, newBrowser, openNewSpace, seedPage, test, uniqueEmail } from './support';

test('the author asks a member for a review; the reviewer requests changes with a comment, then approves', async ({
  page,
  browser,
}) => {
  const { organizationId, spaceId } = await openNewSpace(page, 'Review journey', 'Specs');
  await seedPage(page, spaceId, 'Spec', 'Draft spec.');
  const invite = await callApi(page, 'POST', `/orgs/${organizationId}/link-invites`, { role: 'review' });

  // Rita signs up and joins the organization through the invite link.
  const ritaContext = await newBrowser(browser);
  const rita = await ritaContext.newPage();
  await rita.goto('/signup');
  await rita.getByLabel('Your name').fill('Rita Reviewer');
  const ritaEmail = uniqueEmail('rita');
  await rita.getByLabel('E-mail').fill(ritaEmail);
  await rita.getByLabel('Password').fill('careful-reading');
  await rita.getByRole('button', { name: 'Create account' }).click();
  await expect(rita.getByRole('heading', { name: 'Create your first organization' })).toBeVisible();
  await callApi(rita, 'POST', `/orgs/${organizationId}/invites/${invite.id}`);

  // The owner changes the page in a change request and asks Rita to review it.
  await page.reload();
  await page.getByRole('button', { name: 'Edit in a change request' }).click();
  await page.getByRole('textbox', { name: 'Content' }).fill('Final spec.');
  await page.getByRole('button', { name: 'Save page' }).click();
  await expect(page.locator('.editor-status')).toHaveText('All changes saved');
  await page.getByRole('navigation', { name: 'Change request sections' }).getByRole('link', { name: 'Review' }).click();
  const reviewUrl = page.url();
  await expect(page.getByText('You started this change request: its reviews come from others.')).toBeVisible();
  await page.getByRole('button', { name: 'Request a review…' }).click();
  await page.getByLabel('Request a review from').selectOption({ label: `Rita Reviewer (${ritaEmail})` });
  await page.getByRole('button', { name: 'Request review' }).click();
  const requested = page.getByRole('list', { name: 'Requested reviewers' });
  await expect(requested.getByRole('listitem').filter({ hasText: 'Rita Reviewer' })).toContainText('Awaiting review');

  // Rita reviews: changes requested, with a comment in markdown; then an approval.
  await rita.goto(reviewUrl);
  await expect(rita.getByRole('list', { name: 'Requested reviewers' }).getByText('Rita Reviewer')).toBeVisible();
  await expect(rita.getByRole('table', { name: 'Changes side by side' }).getByText('Final spec.')).toBeVisible();
  const form = rita.getByRole('form', { name: 'Your review' });
  await form.getByRole('textbox', { name: 'Review comment' }).fill('Please add **examples**.');
  await form.getByRole('button', { name: 'Request changes' }).click();
  const reviews = rita.getByRole('list', { name: 'Reviews' });
  await expect(reviews.getByRole('listitem')).toHaveCount(1);
  await expect(reviews.getByText('Changes requested')).toBeVisible();
  await expect(reviews.locator('strong')).toHaveText('examples');
  await expect(form.getByRole('textbox', { name: 'Review comment' })).toHaveValue('');
  // Having reviewed, Rita is no longer waited for, and stays listed with her verdict.
  const ritaListed = rita.getByRole('list', { name: 'Requested reviewers' }).getByRole('listitem');
  await expect(ritaListed).toHaveCount(1);
  await expect(ritaListed).toContainText('Changes requested');
  await expect(ritaListed).not.toContainText('Awaiting review');
  await form.getByRole('button', { name: 'Approve' }).click();
  await expect(reviews.getByRole('listitem')).toHaveCount(2);
  await expect(reviews.getByText('Approved')).toBeVisible();
  await expect(ritaListed).toContainText('Approved');
  await ritaContext.close();

  // The owner sees both reviews, Rita's latest verdict among the reviewers, and merges.
  await page.reload();
  await expect(page.getByRole('list', { name: 'Reviews' }).getByRole('listitem')).toHaveCount(2);
  await expect(requested.getByRole('listitem').filter({ hasText: 'Rita Reviewer' })).toContainText('Approved');
  await page.getByRole('button', { name: 'Merge into the space' }).click();
  await page
    .getByRole('alertdialog', { name: 'Merge this change request?' })
    .getByRole('button', { name: 'Merge', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Merged' })).toBeVisible();
});

test('a change request exports as PDF, whole or one page', async ({ page }) => {
  const { spaceId } = await openNewSpace(page, 'PDF journey', 'Printed');
  await seedPage(page, spaceId, 'Chapter', 'Some text.');
  await page.reload();
  await page.getByRole('button', { name: 'Edit in a change request' }).click();
  await page.getByRole('textbox', { name: 'Content' }).fill('Some better text.');
  await page.getByRole('button', { name: 'Save page' }).click();
  await expect(page.locator('.editor-status')).toHaveText('All changes saved');

  const whole = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export PDF' }).click();
  expect((await whole).suggestedFilename()).toMatch(/\.pdf$/);
  expect(await (await whole).failure()).toBeNull();

  await page.getByRole('navigation', { name: 'Change request sections' }).getByRole('link', { name: 'Review' }).click();
  const one = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Chapter as PDF' }).click();
  const download = await one;
  expect(await download.failure()).toBeNull();
  const path = await download.path();
  expect((await readFile(path)).subarray(0, 5).toString()).toBe('%PDF-');
});
