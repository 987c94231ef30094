import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { safeHref } from './markdown';
import Markdown from './markdown-renderer';

const render = (markdown: string) => renderToStaticMarkup(<Markdown>{markdown}</Markdown>);

describe('Markdown', () => {
  it('renders GFM: headings shifted below the page title, emphasis, lists, tables, task lists', () => {
    const html = render('# Title\n\nSome **bold** text.\n\n- a\n- [x] done\n\n| h |\n| - |\n| c |\n\n~~gone~~');
    expect(html).toContain('<h2>Title</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<table>');
    expect(html).toContain('type="checkbox"');
    expect(html).toContain('<del>gone</del>');
  });

  it('shows raw HTML as text: no script element, no event handler attribute survives', () => {
    const html = render(
      'Hi <script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n<a href="#" onclick="alert(1)">x</a>\n\n<iframe src="https://evil.example"></iframe>',
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toMatch(/<a[^>]*onclick/i);
    expect(html).not.toMatch(/<iframe/i);
    expect(html).toContain('&lt;script&gt;');
  });

  it('drops javascript:, vbscript: and data: targets of links and images', () => {
    const html = render(
      '[click](javascript:alert(1)) [v](vbscript:msgbox) [d](data:text/html;base64,PHNjcmlwdD4=) ![i](javascript:alert(2)) [ok](https://example.com) [rel](/docs/page)',
    );
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/vbscript:/i);
    expect(html).not.toMatch(/data:text/i);
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).toContain('href="/docs/page"');
  });

  it('drops unsafe link targets written as autolinks or references too', () => {
    const html = render('<javascript:alert(1)>\n\n[ref][x]\n\n[x]: javascript:alert(3)');
    expect(html).not.toMatch(/href="javascript:/i);
  });
});

describe('safeHref', () => {
  it('keeps http(s), mailto and paths; refuses script URLs', () => {
    expect(safeHref('https://example.com/a')).toBe('https://example.com/a');
    expect(safeHref('mailto:a@example.com')).toBe('mailto:a@example.com');
    expect(safeHref('/docs')).toBe('/docs');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref(' JavaScript:alert(1)')).toBeUndefined();
    expect(safeHref(undefined)).toBeUndefined();
  });
});

describe('Markdown with change marks', () => {
  const marked = (markdown: string, against: string, tag: 'ins' | 'del') =>
    renderToStaticMarkup(
      <Markdown changeTag={tag} changedAgainst={against}>
        {markdown}
      </Markdown>,
    );

  it('marks the words each side has that the other does not, as they read once rendered', () => {
    const before = 'Install the **old** client with [npm](https://npmjs.com).';
    const after = 'Install the **new** client with [pnpm](https://pnpm.io) today.';
    const ins = marked(after, before, 'ins');
    expect(ins).toContain('<strong><ins>new</ins></strong>');
    expect(ins).toMatch(/<a href="https:\/\/pnpm.io"[^>]*><ins>pnpm<\/ins><\/a> <ins>today<\/ins>\./);
    expect(ins).toContain('<ins>today</ins>');
    expect(ins).not.toMatch(/<ins>[^<]*(Install|client)/);
    const del = marked(before, after, 'del');
    expect(del).toContain('<strong><del>old</del></strong>');
    expect(del).toMatch(/<a href="https:\/\/npmjs.com"[^>]*><del>npm<\/del><\/a>/);
  });

  it('marks words inside table cells and code without breaking them, and marks nothing when nothing changed', () => {
    const ins = marked(
      '| a | b |\n| - | - |\n| 1 | two |\n\n```\nrun it now\n```',
      '| a | b |\n| - | - |\n| 1 | 2 |\n\n```\nrun it\n```',
      'ins',
    );
    expect(ins).toContain('<td><ins>two</ins></td>');
    expect(ins).toMatch(/<code>run it <ins>now<\/ins>/);
    expect(ins).toContain('<table>');
    expect(marked('Same text.', 'Same text.', 'ins')).not.toContain('<ins>');
  });

  it('shows a very large block without word marks rather than diffing it on the page', () => {
    const big = 'word '.repeat(5_000);
    expect(marked(`${big} extra`, big, 'ins')).not.toContain('<ins>');
  });
});
