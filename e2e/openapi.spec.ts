import { callApi, expect, expectAccessible, newOrganization, openOrganization, seedPage, test } from './support';
import { PETSTORE_SWAGGER, PETSTORE_V1, PETSTORE_V2 } from '../src/server/test/openapi-fixtures';

test('publish an OpenAPI spec from the console, read its reference, compare two versions and show it in a page', async ({
  page,
}) => {
  const organizationId = await newOrganization(page, 'API team');
  await openOrganization(page, organizationId);
  await page.getByRole('navigation', { name: 'API team sections' }).getByRole('link', { name: 'API specs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API specifications' })).toBeVisible();
  await expect(page.getByText('No API specification yet')).toBeVisible();

  // Add by pasting the text.
  await page.getByRole('button', { name: 'Add specification' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add an OpenAPI specification' });
  await dialog.getByLabel('Slug').fill('Pet Store');
  await dialog.getByLabel('Paste the text').check();
  await dialog.getByLabel('Specification').fill(PETSTORE_V1);
  await dialog.getByRole('button', { name: 'Add specification' }).click();
  await expect(dialog.getByText(/lowercase letters, digits and single dashes/)).toBeVisible();
  await dialog.getByLabel('Slug').fill('petstore');
  await dialog.getByRole('button', { name: 'Add specification' }).click();
  await expect(dialog).toBeHidden();

  // The spec's page follows its processing, then shows its first version's reference.
  await expect(page.getByRole('heading', { level: 1, name: 'petstore' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Processed$/ })).toBeVisible({ timeout: 15_000 });
  const versions = page.getByRole('list', { name: 'Versions, newest first' });
  await expect(versions.getByRole('listitem')).toHaveCount(1);
  await expect(versions.getByText('Latest')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /Pet store/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'DELETE /pets/{petId}', exact: true })).toBeVisible();
  const list = page.getByRole('region', { name: 'GET /pets', exact: true });
  await expect(list.getByText('How many pets to return')).toBeVisible();
  await expect(list.getByText("--url 'https://pets.example.com/v1/pets'")).toBeVisible();
  await expectAccessible(page);

  // A new version: the update, processed live.
  await page.getByRole('button', { name: 'Update source' }).click();
  dialog = page.getByRole('dialog', { name: 'Update “petstore”' });
  await dialog.getByLabel('Paste the text').check();
  await dialog.getByLabel('Specification').fill(PETSTORE_V2);
  await dialog.getByRole('button', { name: 'Process' }).click();
  await expect(dialog).toBeHidden();
  await expect(versions.getByRole('listitem')).toHaveCount(2, { timeout: 15_000 });

  // Compare: the removed operation and the new required parameter are breaking.
  await page.getByRole('tab', { name: 'Compare versions' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /breaking changes?: clients of the older version/ }),
  ).toBeVisible();
  const removed = page.getByRole('listitem').filter({ hasText: '/pets/{petId}' }).filter({ hasText: 'Breaking' });
  await expect(removed.first()).toBeVisible();
  await expect(page.getByText('Required query parameter "store" added')).toBeVisible();
  await expect(page.getByText('body.age: type changed from number to integer')).toBeVisible();
  await expectAccessible(page);

  // Upload a file as a second spec; it appears in the list with its state.
  await page.getByRole('navigation', { name: 'API team sections' }).getByRole('link', { name: 'API specs' }).click();
  await page.getByRole('button', { name: 'Add specification' }).click();
  dialog = page.getByRole('dialog', { name: 'Add an OpenAPI specification' });
  await dialog.getByLabel('Slug').fill('legacy');
  await dialog.getByLabel('Upload a file').check();
  await dialog
    .getByLabel('File', { exact: true })
    .setInputFiles({ name: 'swagger.yaml', mimeType: 'application/yaml', buffer: Buffer.from(PETSTORE_SWAGGER) });
  await expect(dialog.getByText(/swagger\.yaml \(\d+ KB\)/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Add specification' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'legacy' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Processed$/ })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('region', { name: 'POST /pets', exact: true })).toBeVisible();

  // A page that shows an operation: rendered in the space's page view.
  const space = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, { title: 'API guide' });
  const pageId = await seedPage(
    page,
    space.id,
    'Listing pets',
    'How to list pets:\n\n{% openapi-operation spec="petstore" path="/pets" method="get" %}\n',
  );
  await page.goto(`/o/${organizationId}/spaces/${space.id}/pages/${pageId}`);
  const block = page.getByRole('region', { name: 'GET /pets', exact: true });
  await expect(block).toBeVisible();
  await expect(block.getByText('store', { exact: true })).toBeVisible();
  await expectAccessible(page);

  // Delete with confirmation.
  await page.goto(`/o/${organizationId}/openapi/legacy`);
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete “legacy”?' });
  await confirm.getByRole('button', { name: 'Delete specification' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API specifications' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'legacy' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'petstore' })).toBeVisible();
});
