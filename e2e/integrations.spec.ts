import { callApi, expect, expectAccessible, newOrganization, newSpace, openOrganization, test } from './support';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

test('find an integration in the directory, install it on a space with its configuration, then uninstall it', async ({
  page,
}) => {
  const organizationId = await newOrganization(page, 'Integrated');
  const spaceId = await newSpace(page, organizationId, 'Handbook');
  await callApi(page, 'POST', '/integrations/page-stats', {
    title: 'Page stats',
    description: 'Counts how often each page is read',
    summary: 'Adds **page view counts** to your spaces.',
    scopes: ['space:content:read', 'site:views:read'],
    categories: ['analytics'],
    target: 'space',
    visibility: 'public',
    icon: PNG,
    previewImages: [PNG],
    // Run in the server's sandbox for each event: it logs what it got.
    script:
      'export default { async fetch(request) { const form = await request.formData(); console.log("page-stats got " + JSON.parse(form.get("event")).type); return new Response("OK"); } };',
    organization: organizationId,
    externalLinks: [{ url: 'https://example.com/stats', label: 'Documentation' }],
    configurations: {
      account: {
        properties: {
          key: { type: 'string', title: 'Tracking key', description: 'From your stats account' },
          mode: { type: 'string', title: 'Mode', enum: ['fast', 'precise'] },
        },
        required: ['key'],
      },
    },
  });
  await callApi(page, 'POST', '/integrations/git-mirror', {
    title: 'Git mirror',
    description: 'Mirrors spaces to Git',
    scopes: ['space:git:sync'],
    categories: ['gitsync'],
    visibility: 'public',
    script: 'export default {}',
    organization: organizationId,
  });

  await openOrganization(page, organizationId);
  await page
    .getByRole('navigation', { name: 'Integrated sections' })
    .getByRole('link', { name: 'Integrations' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
  const directory = page.getByRole('list', { name: 'Integrations', exact: true });
  await expect(directory.getByRole('link', { name: /Page stats/ })).toBeVisible();
  // Nobody reviewed its code: the directory says so.
  await expect(directory.getByRole('link', { name: /Page stats/ })).toContainText('Unverified');
  await page.getByLabel('Category').selectOption({ label: 'Analytics' });
  await expect(directory.getByRole('link', { name: /Git mirror/ })).toHaveCount(0);
  await page.getByLabel('Search').fill('stats');
  await expect(directory.getByRole('link')).toHaveCount(1);
  await expectAccessible(page);

  await directory.getByRole('link', { name: /Page stats/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Page stats' })).toBeVisible();
  await expect(page.getByText(/Nobody has reviewed this integration's code: .* publishes it/)).toBeVisible();
  await expect(page.getByText('Read the content of the spaces it is installed on')).toBeVisible();
  await expect(page.getByText('page view counts')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', 'https://example.com/stats');
  await page.getByRole('button', { name: 'Install' }).click();
  await expect(page.getByText('Installed', { exact: true })).toBeVisible();

  // The configuration form comes from the integration's schema; the key is required.
  const configuration = page.getByRole('form', { name: 'Configuration' });
  await configuration.getByRole('button', { name: 'Save configuration' }).click();
  await expect(configuration.getByText('This value is required')).toBeVisible();
  await configuration.getByLabel('Tracking key').fill('abc-123');
  await configuration.getByLabel('Mode (optional)').selectOption('precise');
  await configuration.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.getByText('Configuration saved')).toBeVisible();

  // On a space.
  await page.getByLabel('Add a space').selectOption({ label: 'Handbook' });
  await page.getByRole('button', { name: 'Install on this space' }).click();
  const onSpaces = page.getByRole('list', { name: 'Spaces it is installed on' });
  await expect(onSpaces.getByText('Handbook')).toBeVisible();
  const installedOnSpace = await callApi(page, 'GET', `/spaces/${spaceId}/integrations`);
  expect(installedOnSpace.items.map((i: { name: string }) => i.name)).toEqual(['page-stats']);

  // Its publisher's admins see the events its script received, and what it logged (the page asks every 10 s).
  const events = page.getByRole('list', { name: 'Recent events' });
  await expect(events.getByRole('listitem').filter({ hasText: 'space_installation_setup' })).toContainText(
    'Delivered',
    { timeout: 30_000 },
  );
  const setup = events
    .getByRole('listitem')
    .filter({ hasText: /^installation_setup/ })
    .last();
  // How long the script took, as the server measured it.
  await expect(setup).toContainText(/ · \d+ ms/);
  await setup.getByRole('button', { name: 'Logs' }).click();
  await expect(setup.getByText('page-stats got installation_setup')).toBeVisible();
  await expectAccessible(page);

  // The space's settings list it, linking back to it.
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/settings`);
  const onSpace = page.getByRole('list', { name: 'Integrations installed on this space' });
  await onSpace.getByRole('link', { name: 'Page stats' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Page stats' })).toBeVisible();

  // The settings survive a reload.
  await page.reload();
  await expect(page.getByRole('form', { name: 'Configuration' }).getByLabel('Tracking key')).toHaveValue('abc-123');

  await page.getByRole('button', { name: 'Uninstall' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Uninstall “Page stats”?' });
  await confirm.getByRole('button', { name: 'Uninstall' }).click();
  await expect(page.getByRole('button', { name: 'Install' })).toBeVisible();
  const after = await callApi(page, 'GET', `/spaces/${spaceId}/integrations`);
  expect(after.items).toEqual([]);
});
