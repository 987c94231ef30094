import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { safeHref } from './markdown';
import rehypeRaw from 'rehype-raw';
import Markdown from './markdown-renderer';

/** As markdown.tsx renders it: HTML written in the markdown parsed when there is some. */
const render = (markdown: string) =>
  renderToStaticMarkup(<Markdown rawHtml={/</.test(markdown) ? rehypeRaw : undefined}>{markdown}</Markdown>);

describe('Markdown', () => {
  it('renders GFM: headings shifted below the page title, emphasis, lists, tables, task lists', () => {
    const html = render('# Title\n\nSome **bold** text.\n\n- a\n- [x] done\n\n| h |\n| - |\n| c |\n\n~~gone~~');
    expect(html).toContain('<h2 id="title">Title</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<table>');
    expect(html).toContain('type="checkbox"');
    expect(html).toContain('<del>gone</del>');
  });

  it('keeps the safe part of raw HTML, as the published page does: no script element, no event handler survives', () => {
    const html = render(
      'Hi <script>alert(1)</script> <kbd>Ctrl</kbd>\n\n<img src=x onerror="alert(1)">\n\n<a href="#" onclick="alert(1)">x</a>\n\n<iframe src="https://evil.example"></iframe>\n\n<style>p{}</style><details><summary>More</summary>\n\nInside\n\n</details>',
    );
    expect(html).not.toMatch(/<script|alert|<iframe|<style/i);
    expect(html).not.toMatch(/onerror|onclick/i);
    expect(html).toContain('<kbd>Ctrl</kbd>');
    expect(html).toContain('<img src="x"');
    expect(html).toContain('<a href="#">x</a>');
    expect(html).toMatch(/<details><summary>More<\/summary>\s*<p>Inside<\/p>\s*<\/details>/);
  });

  it("keeps a picture's dark variant, its addresses filtered as images' are", () => {
    const html = render(
      '<picture><source srcset="javascript:alert(1) 2x, https://e.com/dark.png 1x" media="(prefers-color-scheme: dark)"><img src="https://e.com/light.png" alt="Chart"></picture>',
    );
    expect(html).toContain(
      '<picture><source media="(prefers-color-scheme: dark)" srcSet="https://e.com/dark.png 1x"/><img src="https://e.com/light.png" alt="Chart"',
    );
    expect(html).not.toContain('javascript');
  });

  it("gives headings the published page's ids, counted across the whole body", () => {
    const html = render(
      '## Request/Reply Hooks\n\n## Dup\n\n{% openapi-operation spec="s" path="/x" method="get" %}\n{% endopenapi-operation %}\n\n## Dup\n\n## Hooks <a href="#x" id="x"></a>\n\n## Custom {#mine}\n\nNote[^1]\n\n[^1]: A note.',
    );
    expect(html).toContain('<h3 id="requestreply-hooks">Request/Reply Hooks</h3>');
    expect(html).toContain('<h3 id="dup">Dup</h3>');
    expect(html).toContain('<h3 id="dup-1">Dup</h3>');
    expect(html).toContain('<h3 id="x">Hooks</h3>');
    expect(html).toContain('<h3 id="mine">Custom</h3>');
    expect(html).toContain('id="footnote-label"');
    expect(html).toContain('href="#user-content-fn-1"');
    expect(html).toContain('id="user-content-fn-1"');
  });

  it('shows links to people and teams as mention chips where asked (comments), and as links elsewhere', () => {
    const markdown = 'Hi [@Ann Lee](/users/01abc), [Writers](/teams/01xyz) and [docs](/users/01abc/more).';
    const comment = renderToStaticMarkup(<Markdown mentions>{markdown}</Markdown>);
    expect(comment).toContain('<span class="mention mention-user">@Ann Lee</span>');
    expect(comment).toContain(
      '<span class="mention mention-team">@Writers<span class="visually-hidden"> (team)</span></span>',
    );
    expect(comment).not.toMatch(/href="\/(users|teams)\/01(abc|xyz)"/);
    expect(comment).toContain('<a href="/users/01abc/more">docs</a>');
    expect(render(markdown)).toContain('<a href="/users/01abc">@Ann Lee</a>');
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
