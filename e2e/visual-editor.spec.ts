import type { Page } from '@playwright/test';
import { accessibilityViolations, callApi, changeRequestPage, expect, openNewSpace, seedPage, test } from './support';

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const ORIGINAL = [
  'Intro   paragraph with *loose* spacing.',
  '',
  '{% hint style="info" %}',
  'Keep this **hint**.',
  '{% endhint %}',
  '',
  '* first',
  '* second',
  '',
  'Last paragraph.',
  '',
].join('\n');

/**
 * A page of `markdown` in a new space (with pages titled `others` too), opened in a new change request (with reusable
 * contents titled `reusable`); `visual` chooses the visual editor.
 */
async function openPage(
  page: Page,
  organization: string,
  title: string,
  markdown: string,
  visual = true,
  others: string[] = [],
  reusable: string[] = [],
) {
  const { organizationId, spaceId } = await openNewSpace(page, organization, 'Handbook');
  for (const other of others) await seedPage(page, spaceId, other, `About ${other}.\n`);
  const pageId = await seedPage(page, spaceId, title, markdown);
  const changeRequest = await callApi(page, 'POST', `/spaces/${spaceId}/change-requests`, { subject: title });
  if (reusable.length) {
    await callApi(page, 'POST', `/spaces/${spaceId}/change-requests/${changeRequest.id}/content?compat=false`, {
      changes: reusable.map((t) => ({ operation: 'insert_reusable_content', title: t, document: { markdown: t } })),
    });
  }
  await page.goto(`/o/${organizationId}/spaces/${spaceId}/change-requests/${changeRequest.number}/pages/${pageId}`);
  if (visual) {
    await page.getByRole('group', { name: 'Editor' }).getByRole('button', { name: 'Visual' }).click();
    await expect(page.locator('.shared-editor-connection')).toHaveText('All changes saved');
  }
  return {
    spaceId,
    pageId,
    changeRequest,
    body: page.getByRole('textbox', { name: 'Content' }),
    /** The page as the server has it (written from the shared document a second after typing stops). */
    written: async () => (await changeRequestPage(page, spaceId, changeRequest.id, pageId)).markdown as string,
  };
}

test('write in the visual editor: shortcuts and the toolbar format, only the touched blocks change, a GitBook block stays', async ({
  page,
}) => {
  // The visual editor loads when chosen; the choice is remembered.
  const { body, written } = await openPage(page, 'Visual journey', 'Guide', ORIGINAL);
  await expect(body).toBeVisible();
  // The GitBook hint is a hint, with its style to choose.
  await expect(body.locator('.editor-hint')).toContainText('Keep this hint.');
  await expect(body.getByRole('combobox', { name: 'Hint style' })).toHaveValue('info');
  // Its style may be changed once the shared document has loaded (it loads read-only).
  await expect(body.getByRole('combobox', { name: 'Hint style' })).toBeEnabled();
  await expect(body.getByRole('listitem')).toHaveCount(2);

  // Bold by Ctrl+B at the end of the last paragraph; a heading and a list by markdown shortcuts.
  await body.getByText('Last paragraph.').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' More ');
  await page.keyboard.press('Control+b');
  await page.keyboard.type('bold');
  await page.keyboard.press('Control+b');
  await page.keyboard.press('Enter');
  await page.keyboard.type('## New section');
  await page.keyboard.press('Enter');
  await page.keyboard.type('- item');
  await expect(body.getByRole('heading', { name: 'New section' })).toBeVisible();
  await expect(body.locator('strong', { hasText: 'bold' })).toBeVisible();

  // Ctrl+K links the selection, and does not open the organization's search.
  await page.keyboard.press('Shift+Home');
  await page.keyboard.press('Control+k');
  const linkDialog = page.getByRole('dialog', { name: 'Add a link' });
  await expect(linkDialog).toBeVisible();
  expect(await accessibilityViolations(page, { within: '.dialog' })).toEqual([]);
  await linkDialog.getByLabel('Address, or a page or heading to find').fill('https://example.com/item');
  await page.keyboard.press('Enter');
  await expect(body.getByRole('link', { name: 'item' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A code block by its shortcut, with its language; its title and line numbers set in its header.
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('```ts ');
  await page.keyboard.type('const a = 1;');
  await expect(body.getByRole('textbox', { name: 'Code language' })).toHaveValue('ts');
  await body.getByRole('textbox', { name: 'Code title' }).fill('app.ts');
  await body.getByRole('checkbox', { name: 'Line numbers' }).check();

  expect(await accessibilityViolations(page, { within: '.page-editor' })).toEqual([]);
  // Nothing to save: what is typed is stored as it is typed, and the page written from it.
  await expect(page.locator('.shared-editor-connection')).toHaveText('All changes saved');
  await expect(page.getByRole('button', { name: 'Save details' })).toBeDisabled();

  // Written: the blocks not touched are as they were written (spacing, `*` bullets, the hint); the others are new.
  await expect
    .poll(written, { timeout: 15_000 })
    .toBe(
      ORIGINAL.replace(
        'Last paragraph.\n',
        'Last paragraph. More **bold**\n\n## New section\n\n- [item](https://example.com/item)\n\n' +
          '{% code title="app.ts" lineNumbers="true" %}\n\n```ts\nconst a = 1;\n```\n\n{% endcode %}\n',
      ),
    );

  // An image dropped before the last paragraph is uploaded and lands there, shown from the change request's files.
  // (The selection let go first: the toolbar over it would be where the file is dropped.)
  await page.keyboard.press('End');
  await expect(page.getByRole('toolbar', { name: 'Selection' })).toBeHidden();
  const last = body.getByText('Last paragraph. More');
  // Dropped where it is seen: in the window.
  await last.scrollIntoViewIfNeeded();
  const rect = (await last.boundingBox())!;
  await last.evaluate(
    (el, { base64, x, y }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'pixel.png', { type: 'image/png' }));
      const at = { dataTransfer: data, bubbles: true, cancelable: true, clientX: x, clientY: y };
      el.dispatchEvent(new DragEvent('dragover', at));
      el.dispatchEvent(new DragEvent('drop', at));
    },
    { base64: PNG_BASE64, x: rect.x + 1, y: rect.y + rect.height / 2 },
  );
  const image = body.locator('img');
  await expect(image).toHaveCount(1);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  await expect
    .poll(written, { timeout: 15_000 })
    .toMatch(/\* second\n\n!\[pixel\.png\]\(\/files\/[\w-]+\)\n\nLast paragraph\. More/);
  const withImage = { markdown: await written() };

  // The choice of editor is kept; the markdown editor shows the same text.
  await page.reload();
  await expect(
    page.getByRole('textbox', { name: 'Content' }).getByRole('heading', { name: 'New section' }),
  ).toBeVisible();
  await page.getByRole('group', { name: 'Editor' }).getByRole('button', { name: 'Markdown' }).click();
  // (The visual editor stays until the switch is done: the markdown editor's text area is waited for.)
  await expect(page.getByRole('textbox', { name: 'Content' }).and(page.locator('textarea'))).toHaveValue(
    withImage.markdown,
  );

  // At phone size the toolbar and the text still fit.
  await page.getByRole('group', { name: 'Editor' }).getByRole('button', { name: 'Visual' }).click();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('toolbar', { name: 'Formatting' })).toBeVisible();
  const box = await page.getByRole('textbox', { name: 'Content' }).boundingBox();
  expect(box!.width).toBeLessThanOrEqual(390);
  // A wide table (names that do not break) scrolls in its block: the page does not scroll sideways.
  await body.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('/table');
  await expect(
    page.getByRole('listbox', { name: 'Insert a block' }).getByRole('option', { selected: true }),
  ).toHaveText('Table');
  await page.keyboard.press('Enter');
  for (const name of ['disableRequestLogging', 'requestIdLogLabel', 'ignoreDuplicateSlashes']) {
    await page.keyboard.type(`${name}${name}`);
    await page.keyboard.press('Tab');
  }
  await expect(body.locator('table').last()).toContainText('ignoreDuplicateSlashes');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('insert every kind of block from the / menu, by keyboard; GitBook blocks are written as GitBook writes them', async ({
  page,
}) => {
  const figure = '<figure><img src="/favicon.svg" alt=""><figcaption><p>Old caption</p></figcaption></figure>';
  const { body, written } = await openPage(
    page,
    'Slash journey',
    'Blocks',
    `${figure}\n\nStart.\n`,
    true,
    ['Install'],
    ['Support note'],
  );
  // An image with a caption is an image, its caption and description typed under it.
  await expect
    .poll(() => body.locator('figure img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  await body.getByRole('textbox', { name: 'Image caption' }).fill('The logo');
  await body.getByRole('textbox', { name: 'Image description (alt text)' }).fill('Docspace');
  await body.getByText('Start.').click();
  await page.keyboard.press('End');

  /** Opens the menu on a new line, filters it by `query`, checks the choice, and inserts it with Enter. */
  const insert = async (query: string, choice: string) => {
    await page.keyboard.press('Enter');
    await page.keyboard.type(`/${query}`);
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await expect(menu.getByRole('option', { selected: true })).toHaveText(choice);
    await page.keyboard.press('Enter');
    await expect(menu).toHaveCount(0);
  };

  await insert('heading 2', 'Heading 2');
  await page.keyboard.type('Section');
  await insert('bullet', 'Bulleted list');
  await page.keyboard.type('point');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await insert('warn', 'Hint: warning');
  await page.keyboard.type('Careful.');
  // Out of the hint: Enter on its empty last line, then a new block below.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await insert('tabs', 'Tabs');
  await page.keyboard.type('For macOS.');
  // The first tab's title, typed in place.
  const title = body.getByRole('textbox', { name: 'Tab title' }).first();
  await title.fill('macOS');
  // The menu's choices can be gone through with the arrows too.
  await body.locator('.editor-tabs').last().click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('/ste');
  // (Each key once the menu shows what the one before did.)
  const menu = page.getByRole('listbox', { name: 'Insert a block' });
  await expect(menu.getByRole('option', { selected: true })).toHaveText('Stepper');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('option', { selected: true })).toHaveText('Stepper');
  await page.keyboard.press('Enter');
  await expect(menu).toHaveCount(0);
  await page.keyboard.type('Download');
  await expect(body.locator('.editor-stepper')).toHaveCount(1);
  // An item of a block of items is added after the one the cursor is in from the `/` menu, and removed with the
  // button in its header (the second step and tab the menu made).
  await page.keyboard.press('Enter');
  await page.keyboard.type('/add step');
  await expect(menu.getByRole('option', { selected: true })).toHaveText('Add a step after this one');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Run');
  const steps = body.locator('.editor-step');
  await expect(steps).toHaveCount(3);
  await steps.nth(2).getByRole('button', { name: 'Remove this step' }).click();
  await expect(steps).toHaveCount(2);
  // …and moved up from the `/` menu typed in it (the cursor stays in the step before the one removed).
  await page.keyboard.press('Enter');
  await page.keyboard.type('/move up');
  await expect(menu.getByRole('option', { selected: true })).toHaveText('Move this step up');
  await page.keyboard.press('Enter');
  await expect(steps.first()).toHaveText(/Run/);
  await body.locator('.editor-tab').nth(1).getByRole('button', { name: 'Remove this tab' }).click();
  await expect(body.locator('.editor-tab')).toHaveCount(1);
  await page.keyboard.press('Control+End');
  await insert('expand', 'Expandable');
  await page.keyboard.type('Because it is.');
  await body.getByRole('textbox', { name: 'Expandable title' }).fill('Why?');
  await body.getByText('Because it is.').click();
  await page.keyboard.press('Control+End');
  // A page reference: its page chosen in the picker that opens, then back to the text after it.
  await insert('page ref', 'Page reference');
  const picker = page.getByRole('dialog', { name: 'Choose a page' });
  await picker.getByLabel('Address, or a page or heading to find').fill('inst');
  await picker.getByRole('button', { name: /Install/ }).click();
  await expect(picker).toHaveCount(0);
  await expect(body.getByRole('textbox', { name: 'Page reference: title' })).toHaveValue('Install');
  // An embed: its address and caption typed in its fields; Enter goes back to the text.
  await insert('embed', 'Embed a URL');
  await expect(body.getByRole('textbox', { name: 'Embed: address' })).toBeFocused();
  await page.keyboard.type('https://www.youtube.com/watch?v=abc');
  await page.keyboard.press('Tab');
  await page.keyboard.type('A talk');
  await page.keyboard.press('Enter');
  await page.keyboard.type('After the embed.');
  await insert('openapi', 'OpenAPI operation');
  await page.keyboard.type('petstore');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.type('/pets');
  await page.keyboard.press('Enter');
  await page.keyboard.type('After the operation.');
  // Reusable content: its name suggested from the change request's reusable contents.
  await insert('reusable', 'Reusable content');
  // (A field with suggestions is a combo box.)
  const include = body.getByRole('combobox', { name: 'Reusable content: name' });
  await expect(include).toBeFocused();
  const suggestions = page.locator(`datalist#${await include.getAttribute('list')} option`);
  await expect(suggestions).toHaveAttribute('value', '../.gitbook/includes/support-note.md');
  await expect(suggestions).toHaveAttribute('label', 'Support note');
  await include.fill('../.gitbook/includes/support-note.md');
  // Updates (a changelog): the first dated in its field, another added after it from its header.
  await body.getByText('After the operation.').click();
  await page.keyboard.press('End');
  await insert('changelog', 'Updates');
  await page.keyboard.type('Shipped.');
  await body.getByRole('textbox', { name: 'Update date' }).fill('2026-11-02');
  await body.getByRole('button', { name: 'Add an update after this one' }).click();
  await page.keyboard.type('Next.');
  await expect(body.locator('.editor-update')).toHaveCount(2);
  await body.getByText('After the operation.').click();
  await page.keyboard.press('End');
  await insert('side by side', 'Columns');
  await page.keyboard.type('Left side.');
  await expect(body.locator('.editor-column')).toHaveCount(2);
  await insert('math', 'Math');
  // Math shows under its source as readers will see it.
  await expect(body.locator('.editor-math-preview math annotation')).toHaveText('E = mc^2');

  const expected = [
    '<figure><img src="/favicon.svg" alt="Docspace"><figcaption><p>The logo</p></figcaption></figure>\n\nStart.',
    '## Section',
    '- point',
    '{% hint style="warning" %}\nCareful.\n{% endhint %}',
    '{% tabs %}\n{% tab title="macOS" %}\nFor macOS.\n{% endtab %}\n{% endtabs %}',
    '{% stepper %}\n{% step %}\nRun\n{% endstep %}\n\n{% step %}\nDownload\n{% endstep %}\n{% endstepper %}',
    '{% updates format="full" %}\n{% update date="2026-11-02" %}\nShipped.\n{% endupdate %}\n\n{% update date="',
    'Next.\n{% endupdate %}\n{% endupdates %}',
    '<details>\n\n<summary>Why?</summary>\n\nBecause it is.\n\n</details>',
    '{% content-ref url="/pages/',
    '[Install](/pages/',
    '{% embed url="https://www.youtube.com/watch?v=abc" %}\nA talk\n{% endembed %}\n\nAfter the embed.',
    '{% openapi-operation spec="petstore" path="/pets" method="get" %}\n{% endopenapi-operation %}\n\nAfter the operation.',
    '{% include "../.gitbook/includes/support-note.md" %}',
    '{% columns %}\n{% column %}\nLeft side.',
    '$$\nE = mc^2\n$$',
  ];
  await expect(page.locator('.shared-editor-connection')).toHaveText('All changes saved');
  await expect
    .poll(
      async () => {
        const markdown = await written();
        return expected.every((part) => markdown.includes(part)) ? 'all' : markdown;
      },
      { timeout: 15_000 },
    )
    .toBe('all');
  expect(await accessibilityViolations(page, { within: '.page-editor' })).toEqual([]);
});

test('text pasted from Google Docs and Word becomes clean blocks', async ({ page }) => {
  const { body, written } = await openPage(page, 'Paste journey', 'Pasted', 'Start.\n');
  await body.getByText('Start.').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');

  const paste = (html: string, text: string) =>
    body.evaluate(
      (el, { html, text }) => {
        const data = new DataTransfer();
        data.setData('text/html', html);
        data.setData('text/plain', text);
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      },
      { html, text },
    );
  // As Google Docs puts it on the clipboard: styled spans inside a bold wrapper.
  await paste(
    '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1a2b"><h2 dir="ltr"><span style="font-size:16pt;font-weight:400;">From Docs</span></h2>' +
      '<p dir="ltr"><span style="font-weight:700;">Bold</span><span style="font-weight:400;"> and </span><a href="https://example.com/docs"><span style="color:#1155cc;text-decoration:underline;">a link</span></a></p>' +
      '<ul><li dir="ltr"><p dir="ltr"><span>One</span></p></li><li dir="ltr"><p dir="ltr"><span>Two</span></p></li></ul></b>',
    'From Docs\nBold and a link\nOne\nTwo',
  );
  await expect(body.getByRole('heading', { name: 'From Docs' })).toBeVisible();
  // On a line of its own after the list (the page's end is in the list's last item, or in an empty line after it,
  // whether or not the editor has kept one there: two Enters leave the list either way).
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  // As Word puts it: Mso classes and conditional comments.
  await paste(
    '<html xmlns:o="urn:schemas-microsoft-com:office:office"><body><!--StartFragment--><p class=MsoNormal><b><span lang=EN-US>Word</span></b><span lang=EN-US> text<o:p></o:p></span></p>' +
      '<p class=MsoListParagraphCxSpFirst><span lang=EN-US>Plain line<o:p></o:p></span></p><!--EndFragment--></body></html>',
    'Word text\nPlain line',
  );
  await expect(body.locator('strong', { hasText: 'Word' })).toBeVisible();

  // The outline lists the page's headings; choosing one puts the cursor there.
  await page.getByRole('button', { name: 'Outline' }).click();
  const outline = page.getByRole('navigation', { name: 'Outline' });
  await outline.getByRole('button', { name: 'From Docs' }).click();
  await page.keyboard.type('Pasted: ');
  await expect(body.getByRole('heading', { name: 'Pasted: From Docs' })).toBeVisible();
  await expect(outline.getByRole('button', { name: 'Pasted: From Docs' })).toBeVisible();
  expect(await accessibilityViolations(page, { within: '.page-editor' })).toEqual([]);

  // A link to a heading, picked by typing part of it.
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('See ');
  await page.keyboard.press('Control+k');
  const linkDialog = page.getByRole('dialog', { name: 'Add a link' });
  await linkDialog.getByLabel('Address, or a page or heading to find').fill('from docs');
  await linkDialog.getByRole('button', { name: /Pasted: From Docs/ }).click();
  await expect(body.getByRole('link', { name: 'Pasted: From Docs' })).toBeVisible();

  await expect(page.locator('.shared-editor-connection')).toHaveText('All changes saved');
  await expect
    .poll(written, { timeout: 15_000 })
    .toMatch(
      /## Pasted: From Docs\n\n\*\*Bold\*\* and \[a link\]\(https:\/\/example\.com\/docs\)\n\n- One\n- Two[\s\S]*\*\*Word\*\* text\n\nPlain line\n\nSee \[Pasted: From Docs\]\(#pasted-from-docs\)/,
    );
});

test('switching between the visual and markdown editors keeps the writer’s place', async ({ page }) => {
  const lines = Array.from({ length: 60 }, (_, i) => `Paragraph number ${i + 1}.`);
  const { body, written, spaceId, pageId, changeRequest } = await openPage(
    page,
    'Place journey',
    'Long',
    `${lines.join('\n\n')}\n`,
  );
  const modes = page.getByRole('group', { name: 'Editor' });
  await body.getByText('Paragraph number 42.').click();

  // To markdown: the cursor at the start of the paragraph it was in.
  await modes.getByRole('button', { name: 'Markdown' }).click();
  const textarea = page.getByRole('textbox', { name: 'Content' }).and(page.locator('textarea'));
  await expect(textarea).toBeFocused();
  const at = await textarea.evaluate((el: HTMLTextAreaElement) =>
    el.value.slice(el.selectionStart, el.selectionStart + 20),
  );
  expect(at).toBe('Paragraph number 42.');

  // Back to visual from further down: typing lands in that paragraph.
  await textarea.evaluate((el: HTMLTextAreaElement) => {
    const start = el.value.indexOf('Paragraph number 51.') + 5;
    el.setSelectionRange(start, start);
  });
  await modes.getByRole('button', { name: 'Visual' }).click();
  await expect(page.locator('.shared-editor-connection')).toHaveText('All changes saved');
  await expect(page.locator('.visual-editor-body')).toBeFocused();
  await page.keyboard.type('Here: ');
  await expect(body.getByText('Here: Paragraph number 51.')).toBeVisible();

  // The page's emoji and description are edited beside its title.
  await page.getByLabel('Emoji').fill('🚀');
  await page.getByLabel('Description').fill('Sixty paragraphs to find one’s place in.');
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(page.locator('.editor-status')).toHaveText('Details saved');
  const saved = await changeRequestPage(page, spaceId, changeRequest.id, pageId);
  expect(saved).toMatchObject({ emoji: '🚀', description: 'Sixty paragraphs to find one’s place in.' });
  await expect.poll(written, { timeout: 15_000 }).toContain('Here: Paragraph number 51.');

  // Find in the page (Ctrl+F in the text): matches counted and gone through, then replaced, all in one go.
  await body.getByText('Paragraph number 3.').click();
  await page.keyboard.press('Control+f');
  const find = page.getByRole('search', { name: 'Find in the page' });
  await expect(find.getByPlaceholder('Find in the page')).toBeFocused();
  await page.keyboard.type('NUMBER 5');
  // "number 5." and "number 50." to "number 59.", from where the writer was.
  await expect(find.getByRole('status')).toHaveText('1 of 11');
  await expect(body.locator('.find-match-current')).toHaveText('number 5');
  await page.keyboard.press('Enter');
  await expect(find.getByRole('status')).toHaveText('2 of 11');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.press('Shift+Enter');
  await expect(find.getByRole('status')).toHaveText('11 of 11');
  expect(await accessibilityViolations(page, { within: '.find-bar' })).toEqual([]);
  await find.getByPlaceholder('Replace with').fill('No. 5');
  await find.getByRole('button', { name: 'Replace all' }).click();
  await expect(find.getByRole('status')).toHaveText('Replaced 11');
  await page.keyboard.press('Escape');
  await expect(find).toHaveCount(0);
  await expect(body.locator('.find-match, .find-match-current')).toHaveCount(0);
  await expect
    .poll(written, { timeout: 15_000 })
    .toMatch(/Paragraph No\. 5\.\n\n[\s\S]*Paragraph No\. 59\.\n\nParagraph number 60\./);

  // A new paragraph made with the caret out of view (the page scrolled away from it) is brought into view.
  await body.getByText('Paragraph number 60.').click();
  await page.keyboard.press('End');
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(body.getByText('Paragraph number 60.')).not.toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(body.locator('p').last()).toBeInViewport();
});
