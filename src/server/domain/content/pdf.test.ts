import { describe, expect, it } from 'vitest';
import { PDFParse } from 'pdf-parse';
import { renderPdf, toWinAnsi } from './pdf.js';

interface Parsed {
  text: string;
  pages: string[];
  total: number;
  info: Record<string, unknown>;
  outline: unknown;
}

async function parse(pdf: Buffer): Promise<Parsed> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    const text = await parser.getText();
    const info = await parser.getInfo();
    return {
      // One space between words, whatever line breaks and cell separators the extractor chose.
      text: text.text.replace(/\s+/g, ' '),
      pages: text.pages.map((page) => page.text.replace(/\s+/g, ' ')),
      total: text.total,
      info: (info.info ?? {}) as Record<string, unknown>,
      outline: info.outline,
    };
  } finally {
    await parser.destroy();
  }
}

const guide = [
  '# Installing Docspace',
  '',
  'Docspace runs on **Node twenty** with *optional* PostgreSQL and `npm start` to begin.',
  'See [the manual](https://example.com/manual) or <https://example.com/faq>.',
  '',
  '## Requirements',
  '',
  '- Bullet alpha',
  '- Bullet beta',
  '  1. Nested first',
  '  2. Nested second',
  '- [x] Task done',
  '',
  '3. Third numbered',
  '4. Fourth numbered',
  '',
  '```ts',
  'const answer = computeAnswer(42);',
  '    indentedLine();',
  '```',
  '',
  '> Quoted wisdom here',
  '',
  '| Setting | Default value |',
  '| :------ | ------------: |',
  '| PORT | 8080 |',
  '| DATA_DIR | ./data |',
  '',
  '---',
  '',
  '![Architecture diagram](diagram.png)',
  '',
  '<div>raw html block</div>',
  '',
  'Text with ~~struck~~ words and a hard  ',
  'break plus a footnote[^note].',
  '',
  '[^note]: Footnote body text.',
].join('\n');

describe('renderPdf', () => {
  it('renders the title, page titles and every kind of markdown block as extractable text', async () => {
    const pdf = await renderPdf({
      title: 'Change request: install guide',
      pages: [
        { title: 'Getting started', depth: 0, markdown: guide },
        { title: 'Nested page', depth: 1, markdown: 'Nested page body.' },
        { title: 'Deep page', depth: 3, markdown: '' },
      ],
    });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');

    const { text, info, total } = await parse(pdf);
    expect(total).toBe(1);
    expect(info.Title).toBe('Change request: install guide');
    for (const expected of [
      'Change request: install guide',
      'Getting started',
      'Nested page',
      'Deep page',
      'Nested page body.',
      // headings
      'Installing Docspace',
      'Requirements',
      // paragraph with inline styles, inline code and links
      'Docspace runs on Node twenty with optional PostgreSQL and npm start to begin.',
      'See the manual (https://example.com/manual) or https://example.com/faq.',
      // lists, nested and numbered, task items
      'Bullet alpha',
      'Bullet beta',
      '1. Nested first',
      '2. Nested second',
      '[x] Task done',
      '3. Third numbered',
      '4. Fourth numbered',
      // code
      'const answer = computeAnswer(42);',
      'indentedLine();',
      // blockquote, table cells, image, raw html, strikethrough, hard break, footnote
      'Quoted wisdom here',
      'Setting',
      'Default value',
      'PORT',
      '8080',
      'DATA_DIR',
      './data',
      '[image: Architecture diagram]',
      '<div>raw html block</div>',
      'Text with struck words and a hard',
      'break plus a footnote[note].',
      '[note] Footnote body text.',
    ]) {
      expect(text).toContain(expected);
    }
    // An autolink's text equals its URL: it is not repeated.
    expect(text).not.toContain('(https://example.com/faq)');
  });

  it('shows GitBook blocks and math as the site reads them: their content, never their tags', async () => {
    const markdown = [
      '{% hint style="warning" %}',
      'Back up first.',
      '{% endhint %}',
      '',
      '{% tabs %}',
      '{% tab title="npm" %}',
      'Run npm.',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      'Euler: $$e^{i\\pi}+1=0$$.',
      '',
      '```markdown',
      '{% hint style="info" %}',
      '```',
    ].join('\n');
    const { text } = await parse(await renderPdf({ title: 'Blocks', pages: [{ title: 'P', depth: 0, markdown }] }));
    for (const expected of ['Warning', 'Back up first.', 'npm', 'Run npm.', 'Euler: e^{i\\pi}+1=0']) {
      expect(text).toContain(expected);
    }
    // Tags show only where they are code.
    expect(text.match(/\{%/g)).toHaveLength(1);
  });

  it('keeps pages in order and bookmarks them by depth', async () => {
    const pdf = await renderPdf({
      title: 'Space',
      pages: [
        { title: 'Alpha page', depth: 0, markdown: 'alpha body' },
        { title: 'Beta page', depth: 1, markdown: 'beta body' },
        { title: 'Gamma page', depth: 0, markdown: 'gamma body' },
      ],
    });
    const { text, outline } = await parse(pdf);
    const order = ['Space', 'Alpha page', 'alpha body', 'Beta page', 'beta body', 'Gamma page', 'gamma body'].map((s) =>
      text.indexOf(s),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const titles = (outline as Array<{ title: string; items: Array<{ title: string }> }>).map((item) => ({
      title: item.title,
      items: item.items.map((child) => child.title),
    }));
    expect(titles).toEqual([
      { title: 'Alpha page', items: ['Beta page'] },
      { title: 'Gamma page', items: [] },
    ]);
  });

  it('makes absolute web links clickable, but not relative or script links', async () => {
    const pdf = await renderPdf({
      title: 'Links',
      pages: [
        {
          title: 'Links page',
          depth: 0,
          markdown: 'Go to [docs](https://example.com/docs), [sibling](./sibling.md) or [bad](javascript:alert(1)).',
        },
      ],
    });
    const parser = new PDFParse({ data: new Uint8Array(pdf) });
    try {
      const info = await parser.getInfo({ parsePageInfo: true });
      const urls = info.pages.flatMap((page) => page.links.map((link) => link.url));
      expect(urls).toContain('https://example.com/docs');
      expect(urls.some((url) => url.includes('sibling') || url.includes('javascript'))).toBe(false);
    } finally {
      await parser.destroy();
    }
    const { text } = await parse(pdf);
    expect(text).toContain(
      'Go to docs (https://example.com/docs), sibling (./sibling.md) or bad (javascript:alert(1)).',
    );
  });

  it('flows long content onto several pages, numbered in the footer', async () => {
    const paragraphs = Array.from(
      { length: 200 },
      (_, i) => `Paragraph number ${i + 1} says something long enough to wrap onto a second line of the page.`,
    );
    const pdf = await renderPdf({
      title: 'Long document',
      pages: [{ title: 'Many paragraphs', depth: 0, markdown: paragraphs.join('\n\n') }],
    });
    const { text, pages, total } = await parse(pdf);
    expect(total).toBeGreaterThanOrEqual(5);
    expect(pages).toHaveLength(total);
    expect(text).toContain('Paragraph number 1 says');
    expect(text).toContain('Paragraph number 200 says');
    pages.forEach((page, i) => expect(page).toContain(`${i + 1} / ${total}`));
  });

  it('flows a long code block and a long table across pages', async () => {
    const code = Array.from({ length: 150 }, (_, i) => `line_${i + 1}();`).join('\n');
    const table = [
      '| Key | Value |',
      '| --- | ----- |',
      ...Array.from({ length: 80 }, (_, i) => `| key${i + 1} | value${i + 1} |`),
    ].join('\n');
    const pdf = await renderPdf({
      title: 'Big blocks',
      pages: [{ title: 'Blocks', depth: 0, markdown: `\`\`\`\n${code}\n\`\`\`\n\n${table}` }],
    });
    const { text, pages } = await parse(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(text).toContain('line_1();');
    expect(text).toContain('line_150();');
    expect(text).toContain('key80');
    expect(text).toContain('value80');
    // The header row is repeated on the page the table continues on.
    expect(pages.filter((page) => /Key Value/.test(page)).length).toBeGreaterThanOrEqual(2);
  });

  it('copes with deep nesting and huge unbroken words', async () => {
    const nested = Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- level${i}`).join('\n');
    const word = 'w'.repeat(20_000);
    const line = 'c'.repeat(20_000);
    const pdf = await renderPdf({
      title: 'Stress',
      pages: [
        {
          title: 'Edge cases',
          depth: 42,
          markdown: `${'>'.repeat(40)} deep quote\n\n${nested}\n\n${word}\n\n\`\`\`\n${line}\n\`\`\``,
        },
      ],
    });
    const { text, pages } = await parse(pdf);
    expect(text).toContain('deep quote');
    expect(text).toContain('level0');
    expect(text).toContain('level39');
    expect(pages.length).toBeGreaterThan(1);
    // The huge word and code line wrap over lines and pages: joined without spaces and page footers, they are whole.
    const compact = pages
      .map((page) => page.replace(/\d+ \/ \d+/g, ''))
      .join('')
      .replace(/ /g, '');
    expect(compact.includes(word)).toBe(true);
    expect(compact.includes(line)).toBe(true);
  });

  it('replaces emoji and CJK with ? without losing the rest of the text', async () => {
    const pdf = await renderPdf({
      title: 'Unicode 🚀 title',
      pages: [
        {
          title: '日本語のページ',
          depth: 0,
          markdown: '# Héllo wörld 👋🏽\n\nCafé — “quoted” text with 中文 and ❤️ and €5.\n\n- item ✅ done\n\n`code 🐛`',
        },
      ],
    });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text, info } = await parse(pdf);
    expect(info.Title).toBe('Unicode 🚀 title');
    expect(text).toContain('Unicode ? title');
    expect(text).toContain('??????');
    expect(text).toContain('Héllo wörld ?');
    expect(text).toContain('Café — “quoted” text with ?? and ? and €5.');
    expect(text).toContain('item ? done');
    expect(text).toContain('code ?');
  });

  it('produces a valid one-page PDF with only the title when there are no pages', async () => {
    const pdf = await renderPdf({ title: 'Empty change request', pages: [] });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text, total, info } = await parse(pdf);
    expect(total).toBe(1);
    expect(info.Title).toBe('Empty change request');
    expect(text).toContain('Empty change request');
  });
});

describe('toWinAnsi', () => {
  it('keeps Latin-1 and the WinAnsi extras', () => {
    expect(toWinAnsi('Déjà vu — “ok” … €, œ, ™')).toBe('Déjà vu — “ok” … €, œ, ™');
  });

  it('turns each unencodable character (emoji with modifiers counted once) into one ?', () => {
    expect(toWinAnsi('a👍🏽b👨‍👩‍👧c中文d')).toBe('a?b?c??d');
  });

  it('spells a few common symbols in ASCII, drops invisible ones and expands tabs', () => {
    expect(toWinAnsi('a → b\u200b ≤ c\tx\r\ny')).toBe('a -> b <= c    x\ny');
  });

  it('composes decomposed accents before deciding', () => {
    expect(toWinAnsi('e\u0301')).toBe('é');
  });
});
