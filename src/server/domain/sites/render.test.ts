import { describe, expect, it } from 'vitest';
import {
  hrefTargets,
  markdownLinks,
  markdownUrls,
  renderBody,
  renderMarkdown,
  resolveHref,
  type LinkResolver,
} from './render.js';
import { highlightCode } from './highlight.js';

const root = 'https://docs.test/sites/s1';
const links: LinkResolver = {
  currentPath: 'guides/setup',
  siteRoot: root,
  page: (p) =>
    ({ p1: `${root}/space/intro`, intro: `${root}/space/intro`, 'guides/other': `${root}/space/guides/other` })[p],
  file: (id) => (id === 'f1' ? `${root}/space/~files/f1` : undefined),
  fileNamed: (name) => (name === 'logo.png' ? `${root}/space/~files/f1` : undefined),
};

describe('published page rendering', () => {
  it('resolves links to pages (by id, by path, relative .md) and files, keeping anchors', () => {
    expect(resolveHref('/pages/p1', links)).toBe(`${root}/space/intro`);
    expect(resolveHref('/pages/intro#top', links)).toBe(`${root}/space/intro#top`);
    expect(resolveHref('./other.md#x', links)).toBe(`${root}/space/guides/other#x`);
    expect(resolveHref('../intro.md', links)).toBe(`${root}/space/intro`);
    expect(resolveHref('/files/f1', links)).toBe(`${root}/space/~files/f1`);
    expect(resolveHref('./logo.png', links)).toBe(`${root}/space/~files/f1`);
    expect(resolveHref('https://example.com/a.md', links)).toBe('https://example.com/a.md');
    expect(resolveHref('#local', links)).toBe('#local');
    expect(resolveHref('./missing.md', links)).toBe('./missing.md');
  });

  it('keeps the safe part of raw HTML, drops unsafe URLs, demotes headings and gives them unique ids', () => {
    const { html, headings } = renderMarkdown(
      '# Title\n\n# Title\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1)) [y](data:text/html,hi) ' +
        '![i](javascript:alert(1)) <a href="https://e.com" onclick="x()">raw</a>\n\n| a | b |\n|---|---|\n| 1 | 2 |',
      links,
    );
    expect(html).toContain(
      '<h2 id="title">Title<a class="anchor" href="#title" aria-label="Link to the section Title">#</a></h2>',
    );
    expect(html).toContain('id="title-1"');
    expect(headings.map((h) => h.id)).toEqual(['title', 'title-1']);
    expect(html).not.toMatch(/onerror|onclick|javascript:|data:text/);
    expect(html).toContain('<a>x</a>');
    // The HTML written in the page is parsed and cleaned: the image and the link stay, without their handlers.
    expect(html).toContain('<img src="x">');
    expect(html).toContain('<a href="https://e.com" rel="noopener nofollow">raw</a>');
    expect(html).toContain('<table tabindex="0">');
  });

  it('marks links leaving the site nofollow', () => {
    const { html } = renderMarkdown('[out](https://example.com) [in](/pages/p1)', links);
    expect(html).toContain('<a href="https://example.com" rel="noopener nofollow">out</a>');
    expect(html).toContain(`<a href="${root}/space/intro">in</a>`);
  });

  it('renders the same in two steps (targets listed, resolved apart, then rendered) as in one', () => {
    const markdown = [
      '# Links',
      '[by id](/pages/p1) [path](/pages/intro#top) [relative](./other.md#x) [up](../intro.md)',
      '[file](/files/f1) ![logo](./logo.png) [away](https://example.com/a b) <https://auto.example>',
      'www.example.org [ref][r] ![img ref][i] [missing](./missing.md) [local](#local) text[^1]',
      '[r]: ./other.md',
      '[i]: logo.png',
      '[^1]: A footnote with [a link](/pages/p1).',
      '[bad](javascript:alert(1)) [spaces](<./with space.md>) [é](./é.md)',
    ].join('\n\n');
    const urls = markdownUrls(markdown);
    expect(urls).toContain('/pages/p1');
    expect(urls).toContain('./other.md');
    const resolved = Object.fromEntries(urls.map((url) => [url, resolveHref(url, links)]));
    expect(renderBody(markdown, (href) => resolved[href] ?? href, root)).toEqual(renderMarkdown(markdown, links));
  });

  it('says what a link may name, in the order resolveHref tries it', () => {
    expect(hrefTargets('/pages/p1#top', 'guides/setup')).toEqual({
      targets: [{ kind: 'page', ref: 'p1' }],
      hash: '#top',
    });
    expect(hrefTargets('../intro.md?x=1#a', 'guides/setup')).toEqual({
      targets: [{ kind: 'page', ref: 'intro' }],
      hash: '#a',
    });
    expect(hrefTargets('./README.md', 'guides/setup')!.targets).toEqual([
      { kind: 'page', ref: 'guides' },
      { kind: 'fileNamed', name: 'README.md' },
    ]);
    expect(hrefTargets('/files/f1', '')!.targets).toEqual([{ kind: 'file', id: 'f1' }]);
    expect(hrefTargets('./logo.png', '')!.targets).toEqual([{ kind: 'fileNamed', name: 'logo.png' }]);
    expect(hrefTargets('docs/elsewhere', '')!.targets).toEqual([]);
    for (const external of ['https://example.com/a.md', '//cdn.example/x', 'mailto:a@b.c', '#local', '', '%E0%A4%A'])
      expect(hrefTargets(external, 'x'), external).toBeUndefined();
  });

  it('reads the links of a body and the anchors its headings get when published', () => {
    const markdown = [
      '# Title',
      '## Install guide',
      '# Title',
      '[a](/pages/x#y) ![i](./logo.png) [again](/pages/x#y) [j](javascript:alert(1)) text[^1] www.example.org',
      '[^1]: A note with [a link](https://e.com).',
    ].join('\n\n');
    const { links: found, anchors } = markdownLinks(markdown);
    expect(found).toEqual([
      { href: '/pages/x#y', image: false },
      { href: './logo.png', image: true },
      { href: 'http://www.example.org', image: false },
      { href: 'https://e.com', image: false },
    ]);
    // Every id of the published page: its headings' (footnote references are not links to check), its footnotes'.
    expect(anchors).toEqual(expect.arrayContaining(renderMarkdown(markdown, links).headings.map((h) => h.id)));
    expect(anchors).toEqual([
      'title',
      'install-guide',
      'title-1',
      'user-content-fnref-1',
      'footnote-label',
      'user-content-fn-1',
    ]);
  });

  it("shows a picture's dark variant and a figure with its caption, their images at the site's addresses", () => {
    const { html } = renderMarkdown(
      '<picture><source srcset="/files/f1 2x" media="(prefers-color-scheme: dark)"><img src="/files/f1" alt="Chart"></picture>\n\n- Step\n\n  <figure><img src="/files/f1" alt="S"><figcaption><p>Caption</p></figcaption></figure>',
      links,
    );
    expect(html).toContain(
      `<picture><source srcset="${root}/space/~files/f1 2x" media="(prefers-color-scheme: dark)"><img src="${root}/space/~files/f1" alt="Chart"`,
    );
    expect(html).toMatch(
      /<li>\s*<p>Step<\/p>\s*<figure><img src="[^"]+" alt="S"><figcaption><p>Caption<\/p><\/figcaption><\/figure>/,
    );
  });

  it("gives headings GitHub's ids, or the id they name, and keeps the anchors written in the page", () => {
    const markdown = [
      'Text[^1]',
      '[^1]: A note.',
      '## Request/Reply Hooks',
      '## Hooks <a href="#x" id="x"></a>',
      '<a name="old"></a>',
      '## Überblick',
      '## 日本語の見出し',
      '## Dup',
      '## Dup',
      '## Custom {#my-id}',
      '## !!!',
      'See <a id="here">here</a>.',
    ].join('\n\n');
    const { html, headings } = renderMarkdown(markdown, links);
    expect(headings.map((h) => [h.id, h.title])).toEqual([
      ['requestreply-hooks', 'Request/Reply Hooks'],
      ['x', 'Hooks'],
      ['überblick', 'Überblick'],
      ['日本語の見出し', '日本語の見出し'],
      ['dup', 'Dup'],
      ['dup-1', 'Dup'],
      ['my-id', 'Custom'],
      ['section', '!!!'],
    ]);
    expect(html).toContain('<h2 id="x">Hooks<a class="anchor" href="#x"');
    expect(html).toContain('<a name="old" id="old"></a>');
    expect(html).toContain('<a id="here">here</a>');
    // Footnotes link to each other (their ids were prefixed twice), and are not a section of the page.
    expect(html).toContain('<a href="#user-content-fn-1" id="user-content-fnref-1"');
    expect(html).toContain('<li id="user-content-fn-1">');
    expect(html).toContain('<h2 class="sr-only" id="footnote-label">Footnotes</h2>');
    const { anchors } = markdownLinks(markdown);
    expect(anchors).toEqual(expect.arrayContaining(['x', 'old', 'here', 'my-id', 'requestreply-hooks']));
  });

  it('renders GitHub alerts and GitBook hints as callouts, their content sanitized as any other', () => {
    const { html } = renderMarkdown(
      '> [!WARNING]\n> Back up **first**.\n\n{% hint style="success" %}\nAll *good*. <script>x()</script>\n{% endhint %}\n\n> [!NOPE]\n> A quote.',
      links,
    );
    expect(html).toContain(
      '<div class="callout callout-warning" role="note"><p class="callout-title">Warning</p>\n<p>Back up <strong>first</strong>.</p>',
    );
    expect(html).toContain('<div class="callout callout-tip" role="note"><p class="callout-title">Tip</p>');
    expect(html).toContain('All <em>good</em>.');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('{%');
    // Not an alert: a quote stays a quote.
    expect(html).toContain('<blockquote>\n<p>[!NOPE]');
    // An unterminated hint is left as written.
    expect(renderMarkdown('{% hint style="info" %}\nOpen', links).html).toContain('{% hint style="info" %}');
  });

  it('highlights code on the server in light and dark, labelled with its language; unknown languages stay plain', () => {
    const markdown = '```bash\necho "<script>alert(1)</script>"\n```\n\n```klingon\nqapla\n```';
    const { html } = renderBody(markdown, (href) => resolveHref(href, links), root, highlightCode);
    expect(html).toContain('<div class="code-block"><span class="code-lang">bash</span><pre class="shiki');
    expect(html).toContain('--shiki-dark:');
    expect(html).toContain('tabindex="0"');
    // Once: Shiki's own attribute and ours were both written.
    expect(html).not.toMatch(/tabindex="0"[^>]*tabindex/);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#x3C;script>');
    expect(html).toContain('<pre tabindex="0"><code class="language-klingon">qapla\n</code></pre>');
  });
});

describe('headings and task lists, for assistive technology', () => {
  const links = {
    currentPath: '',
    siteRoot: 'https://docs.test/s',
    page: () => undefined,
    file: () => undefined,
    fileNamed: () => undefined,
  };

  it('puts a body’s first heading level at h2, right under the page title, keeping the levels below it in order', () => {
    const fromTwo = renderMarkdown('## Install\n\n### Linux\n\n## Use', links);
    expect(fromTwo.html).toMatch(/<h2 id="install">.*<h3 id="linux">.*<h2 id="use">/s);
    expect(fromTwo.headings.map((h) => h.level)).toEqual([1, 2, 1]);
    const fromOne = renderMarkdown('# Welcome\n\n## Details', links);
    expect(fromOne.html).toMatch(/<h2 id="welcome">.*<h3 id="details">/s);
    const fromThree = renderMarkdown('### Deep\n\n#### Deeper', links);
    expect(fromThree.html).toMatch(/<h2 id="deep">.*<h3 id="deeper">/s);
  });

  it('names the boxes of a task list by what they show', () => {
    const { html } = renderMarkdown('- [x] Back up\n- [ ] Rotate keys', links);
    expect(html).toContain('aria-label="Done"');
    expect(html).toContain('aria-label="Not done"');
  });
});

describe('a body that repeats its page title', () => {
  it('loses that first heading, and only that one', async () => {
    const { withoutTitle } = await import('../../../shared/page-title.js');
    expect(withoutTitle('# Install\n\nRun it.', 'Install')).toBe('Run it.');
    expect(withoutTitle('# Install #\nRun it.', 'Install')).toBe('Run it.');
    expect(withoutTitle('# Installing\n\nRun it.', 'Install')).toBe('# Installing\n\nRun it.');
    expect(withoutTitle('Intro.\n\n# Install', 'Install')).toBe('Intro.\n\n# Install');
    expect(withoutTitle('## Install\n\nRun it.', 'Install')).toBe('## Install\n\nRun it.');
  });
});

describe('math', () => {
  it('shows $$ math as MathML, blocks and inline, and leaves single dollars as text', () => {
    const html = renderMarkdown('Euler: $$e^{i\\pi}+1=0$$.\n\n$$\n\\frac{1}{2}\n$$\n\nCosts $5 and $10.\n', links).html;
    expect(html).toContain(
      '<p>Euler: <span class="math math-inline"><math xmlns="http://www.w3.org/1998/Math/MathML">',
    );
    expect(html).toContain('<div class="math-block"><span class="math math-display"><math');
    expect(html).toContain('<mfrac><mn>1</mn><mn>2</mn></mfrac>');
    expect(html).toContain('<annotation encoding="application/x-tex">\\frac{1}{2}</annotation>');
    expect(html).toContain('<p>Costs $5 and $10.</p>');
  });

  it('lets nothing through KaTeX but math: no links, HTML or styles a formula writes', () => {
    const html = renderMarkdown(
      '$$\\href{javascript:alert(1)}{x}$$ $$\\htmlStyle{color:red}{y}$$ $$<img src=x onerror=alert(1)>$$\n\n$$\n\\url{javascript:alert(2)}\n$$\n',
      links,
    ).html;
    expect(html).not.toMatch(/<a |<img|href=|style=/);
    // The TeX stays readable, escaped, as the formula's annotation or KaTeX's error text.
    expect(html).toContain('&#x3C;img');
  });
});
