import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { callApi, expect, expectAccessible, newOrganization, seedPage, test } from './support';

/** GitBook's blocks as its exports write them (src/shared/fixtures), with math and a figure in a list item. */
const BLOCKS = [
  fs.readFileSync(new URL('../src/shared/fixtures/gitbook-blocks.md', import.meta.url), 'utf8'),
  'Euler wrote $$e^{i\\pi}+1=0$$ once.',
  '$$\n\\int_0^1 x\\,dx = \\frac{1}{2}\n$$',
  '<details>\n<summary>More details</summary>\n\nHidden until opened.\n\n</details>',
].join('\n\n');

/** Every block shows as itself, never as its `{% %}` tags (outside code, and the unknown block's label). */
async function expectBlocks(page: Page, body: Locator) {
  await expect(body.getByRole('note').filter({ hasText: 'Warning' })).toContainText('Back up first.');
  const tabs = body.getByRole('tablist').first();
  await expect(tabs.getByRole('tab')).toHaveText(['npm', 'Yarn']);
  // Tabs are a tablist, from the keyboard too.
  await tabs.getByRole('tab', { name: 'npm' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: 'Yarn' })).toHaveAttribute('aria-selected', 'true');
  await expect(body.getByRole('tabpanel')).toContainText('yarn add x');
  await expect(body.getByText('app.js', { exact: true })).toBeVisible();
  await expect(body.getByRole('heading', { name: 'Install' })).toBeVisible();
  await expect(body.getByRole('link', { name: 'https://www.youtube.com/watch?v=abc' })).toBeVisible();
  await expect(body.locator('math').first()).toBeVisible();
  await expect(body.locator('math')).toHaveCount(2);
  await body.getByText('More details').click();
  await expect(body.getByText('Hidden until opened.')).toBeVisible();
  // The text shown outside code (and math's TeX annotation), the unknown block and the stray end tag aside.
  const outsideCode = await body.evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement;
    for (const skip of copy.querySelectorAll('pre, code, annotation')) skip.remove();
    return (copy.textContent ?? '').replace(/\{% (fancy|endfancy|endhint) %\}/g, '');
  });
  expect(outsideCode).not.toContain('{%');
  expect(outsideCode).not.toContain('$$');
}

test('GitBook blocks and math read the same in the console and on the published site, on a phone and in the dark, accessibly', async ({
  page,
}) => {
  const organizationId = await newOrganization(page, 'Blocks journey');
  const space = await callApi(page, 'POST', `/orgs/${organizationId}/spaces`, { title: 'Blocks' });
  const pageId = await seedPage(page, space.id, 'All blocks', BLOCKS);

  // The console's page view.
  await page.goto(`/o/${organizationId}/spaces/${space.id}/pages/${pageId}`);
  const view = page.getByRole('article');
  await expectBlocks(page, view);
  await expectAccessible(page);

  // The published site, on a desktop and a phone, light and dark.
  const site = await callApi(page, 'POST', `/orgs/${organizationId}/sites`, {
    title: 'Blocks',
    visibility: 'public',
    spaces: [space.id],
  });
  const live = (await callApi(page, 'POST', `/orgs/${organizationId}/sites/${site.id}/publish`)).urls
    .published as string;
  await page.goto(new URL(live).pathname);
  const article = page.getByRole('article');
  await expectBlocks(page, article);
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(article.getByRole('note').filter({ hasText: 'Warning' })).toBeVisible();
  // Nothing wider than the phone but what scrolls in its own box (code, tables, math).
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});
