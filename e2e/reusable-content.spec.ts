import { callApi, expect, expectAccessible, newOrganization, newSpace, seedPage, test } from './support';

test('write reusable content in a change request, include it in a page, merge, and read it in place on the site', async ({
  page,
}) => {
  const organizationId = await newOrganization(page, 'Reusable journey');
  const spaceId = await newSpace(page, organizationId, 'Handbook');
  const pageId = await seedPage(page, spaceId, 'Install', 'Download it.\n\n{% include "support-note.md" %}\n');
  const changeRequest = await callApi(page, 'POST', `/spaces/${spaceId}/change-requests`, { subject: 'Notes' });
  // A reusable content the one written below includes in turn (written through the API).
  await callApi(page, 'POST', `/spaces/${spaceId}/change-requests/${changeRequest.id}/content?compat=false`, {
    changes: [{ operation: 'insert_reusable_content', title: 'Signature', document: { markdown: 'The *docs team*.' } }],
  });
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/change-requests/${changeRequest.number}/pages/${pageId}`);

  const list = page.locator('.reusable-list');
  await expect(list.getByRole('link', { name: 'Signature' })).toBeVisible();
  await list.getByRole('button', { name: 'New' }).click();
  const dialog = page.getByRole('dialog', { name: 'New reusable content' });
  await dialog.getByLabel('Title').fill('Support note');
  await dialog.getByRole('button', { name: 'Add reusable content' }).click();
  await expect(page).toHaveURL(/\/reusable\/[^/]+$/);
  await expect(list.getByRole('link', { name: 'Support note' })).toHaveAttribute('aria-current', 'page');

  const form = page.getByRole('form', { name: 'Edit reusable content Support note' });
  await expect(form.getByText('{% include "../.gitbook/includes/support-note.md" %}')).toBeVisible();
  await form
    .getByRole('textbox', { name: 'Content' })
    .fill('Write to **support@example.com**.\n\n{% include "signature.md" %}');
  await expect(form.getByRole('region', { name: 'Preview' }).locator('strong')).toHaveText('support@example.com');
  await expect(form.getByRole('region', { name: 'Preview' }).locator('em')).toHaveText('docs team');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.locator('.editor-status')).toHaveText('All changes saved');
  await expectAccessible(page);

  // The page that includes it shows it in place in the editor's preview, as the site will.
  await page
    .getByRole('navigation', { name: 'Pages in this change request' })
    .getByRole('link', { name: 'Install' })
    .click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByText('Download it.')).toBeVisible();
  await expect(preview.locator('strong')).toHaveText('support@example.com');
  // And what it includes, as deep as the site expands includes.
  await expect(preview.locator('em')).toHaveText('docs team');

  // The review lists it; merged, the published page shows it where the page includes it.
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/change-requests/${changeRequest.number}`);
  await expect(page.getByText('Reusable content added').first()).toBeVisible();
  // Its text, as a page's diff (open at first, as the first changes are).
  await expect(page.getByRole('button', { name: 'Support note' })).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('.change-body', { hasText: 'support@example.com' })).toBeVisible();
  await callApi(page, 'POST', `/spaces/${spaceId}/change-requests/${changeRequest.number}/merge`);
  const site = await callApi(page, 'POST', `/orgs/${organizationId}/sites`, { title: 'Handbook', spaces: [spaceId] });
  const published = await callApi(page, 'POST', `/orgs/${organizationId}/sites/${site.id}/publish`);
  await page.goto(new URL(published.urls.published).pathname);
  const article = page.locator('article');
  await expect(article.getByText('Download it.')).toBeVisible();
  await expect(article.locator('strong')).toHaveText('support@example.com');
  await expect(article.locator('em')).toHaveText('docs team');
  await expect(article.getByText('{% include')).toHaveCount(0);
});
