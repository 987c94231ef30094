import path from 'node:path';
import { callApi, changePage, expect, expectAccessible, openNewSpace, test } from './support';
import { commitFiles, git, startGitServer, type GitServer } from '../src/server/test/git-server';

/** The repository is served by git http-backend on 127.0.0.2, the one loopback address the journeys' server allows. */
let server: GitServer;
test.beforeAll(async () => {
  server = await startGitServer({ token: 'journey-token', host: '127.0.0.2' });
});
test.afterAll(async () => server.close());

test('a space connected to a Git repository syncs, and a merge is pushed as a commit listed in the panel', async ({
  page,
}) => {
  const url = await server.createRepo('handbook');
  const repo = path.join(server.root, 'handbook.git');
  await commitFiles(repo, {
    'docs/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Setup](setup.md)\n',
    'docs/README.md': '# Welcome\n\nThe handbook.\n',
    'docs/setup.md': '# Setup\n\nInstall it.\n',
  });
  const { organizationId, spaceId } = await openNewSpace(page, 'Git Sync journey', 'Handbook');
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/settings`);
  const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Git Sync' }) });
  await panel.getByRole('button', { name: 'Connect a repository' }).click();

  const dialog = page.getByRole('dialog', { name: 'Connect a Git repository' });
  await dialog.getByLabel('Repository URL').fill(url);
  await dialog.getByLabel('Folder').fill('docs');
  await dialog.getByLabel('Access token').fill('wrong-token');
  await dialog.getByRole('button', { name: 'Test the connection' }).click();
  await expect(dialog.getByRole('status')).toContainText('refused the credentials');
  await dialog.getByLabel('Access token').fill('journey-token');
  await dialog.getByRole('button', { name: 'Test the connection' }).click();
  await expect(dialog.getByRole('status')).toContainText('Connected: main is at');
  await dialog.getByLabel('Direction').selectOption('two-way');
  await expectAccessible(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(dialog).toBeHidden();

  // The webhook to give the forge, and the first sync.
  await expect(panel.getByRole('textbox', { name: 'Webhook URL' })).toHaveValue(
    `${new URL(page.url()).origin}/v1/spaces/${spaceId}/git/webhook`,
  );
  await panel.getByRole('button', { name: 'Sync now' }).click();
  const runs = panel.getByRole('list', { name: 'Latest syncs' });
  await expect(runs.getByRole('listitem').first()).toContainText('Done');
  await expect(runs.getByRole('listitem').first()).toContainText('From the repository by hand');
  const pages = (await callApi(page, 'GET', `/spaces/${spaceId}/content/pages`)).pages as Array<{
    id: string;
    title: string;
  }>;
  expect(pages.map((p) => p.title)).toEqual(['Welcome', 'Setup']);

  // A writer's change, merged in the console, goes to the repository as a commit named after it.
  const number = await changePage(page, spaceId, pages[1]!.id, 'Install it, then run it.\n');
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/change-requests/${number}`);
  await page.getByRole('button', { name: 'Merge into the space' }).click();
  await page
    .getByRole('alertdialog', { name: 'Merge this change request?' })
    .getByRole('button', { name: 'Merge', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Merged' })).toBeVisible();

  await page.goto(`/o/${organizationId}/spaces/${spaceId}/settings`);
  const pushed = runs.getByRole('listitem').first();
  await expect(pushed).toContainText('Done');
  await expect(pushed).toContainText('To the repository by a merge');
  const head = (await git(['rev-parse', 'main'], { cwd: repo })).trim();
  await expect(pushed).toContainText(head.slice(0, 7));
  expect(await git(['log', '-1', '--format=%s', 'main'], { cwd: repo })).toBe(`GITBOOK-${number}: Rewrite\n`);
  expect(await git(['show', 'main:docs/setup.md'], { cwd: repo })).toBe('# Setup\n\nInstall it, then run it.\n');
  await expect(panel.getByText(head.slice(0, 7)).first()).toBeVisible();
  await expectAccessible(page);
});
