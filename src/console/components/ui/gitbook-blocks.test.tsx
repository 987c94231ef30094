import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import rehypeRaw from 'rehype-raw';
import Markdown from './markdown-renderer';
// eslint-disable-next-line no-restricted-imports -- the test holds the console's renderer against the site's
import { renderMarkdown } from '../../../server/domain/sites/render';
import fixture from '../../../shared/fixtures/gitbook-blocks.md?raw';
import { parseGitbookTag, spaceGitbookTags } from '../../../shared/gitbook-blocks';

/**
 * GitBook's blocks (shared/gitbook-blocks.ts) as the published page and the console show them: one reading of the
 * markdown, so the same blocks, with the same classes, in the same order, in both.
 */
const links = {
  currentPath: 'guide',
  siteRoot: 'https://docs.example.com/site',
  page: () => undefined,
  file: () => undefined,
  fileNamed: () => undefined,
};
const site = renderMarkdown(fixture, links).html;
const consoleHtml = renderToStaticMarkup(<Markdown rawHtml={rehypeRaw}>{fixture}</Markdown>);
/** The blocks' classes, in order (the console's tablist, which the site's script adds in the browser, aside). */
const classes = (html: string) =>
  [...html.matchAll(/class="([^"]*)"/g)]
    .flatMap((m) => m[1]!.split(' '))
    .filter((c) => /^(gb-|callout)/.test(c) && c !== 'gb-live' && c !== 'gb-tablist');

describe('GitBook blocks', () => {
  it('shows each block on the published page, never its tags', () => {
    expect(site).toContain('<div class="callout callout-warning" role="note"><p class="callout-title">Warning</p>');
    expect(site).toMatch(/<div class="gb-tabs"><div class="gb-tab"><p class="gb-tab-title">npm<\/p>/);
    expect(site).toContain('<figure class="gb-code gb-code-lines"><figcaption>app.js</figcaption>');
    expect(site).toMatch(/<ol class="gb-stepper"><li class="gb-step"><h4 id="install">/);
    expect(site).toContain(
      '<div class="gb-embed"><p class="gb-embed-link"><a href="https://www.youtube.com/watch?v=abc"',
    );
    expect(site).toContain('<div class="gb-content-ref"><p><a href="other.md">other.md</a></p></div>');
    expect(site).toContain('<div class="gb-columns"><div class="gb-column"><p>Left</p></div>');
    expect(site).toContain('<p class="gb-unknown-label">Included content: shared.md</p>');
    expect(site).toContain('<p class="gb-unknown-label">{% fancy %}</p><p>Unknown block content</p>');
    expect(site).toContain('<a href="../.gitbook/assets/guide.pdf">guide.pdf</a>');
    // In a list item too.
    expect(site).toMatch(/<li>\s*<p>A step<\/p>\s*<div class="callout callout-note" role="note">/);
    // Tags show nowhere outside code; in code, they are code, as written.
    const visible = site
      .replace(/<pre[^]*?<\/pre>/g, '')
      .replace('<p class="gb-unknown-label">{% fancy %}</p>', '')
      .replace('<p>{% endhint %}</p>', '');
    expect(visible).not.toContain('{%');
    expect(site).toContain('<code class="language-markdown">{% hint style="info" %}\nInside code: left as written.');
    // A stray end tag stays as it was written.
    expect(site).toContain('<p>{% endhint %}</p>');
  });

  it('shows the same blocks in the console, tabs as a tablist with one panel shown', () => {
    expect(classes(consoleHtml)).toEqual(classes(site));
    expect(consoleHtml).toContain('Inside code: left as written.');
    expect(consoleHtml).toMatch(
      /<div role="tablist" class="gb-tablist"><button type="button" role="tab"[^>]*aria-selected="true"[^>]*>npm<\/button><button[^>]*aria-selected="false"[^>]*>Yarn<\/button>/,
    );
    expect(consoleHtml.match(/role="tabpanel"/g)).toHaveLength(2);
    expect(consoleHtml.match(/role="tabpanel"[^>]*hidden=""/g)).toHaveLength(1);
  });

  it('reads tags and their attributes, and puts each tag line outside code in a paragraph of its own', () => {
    expect(parseGitbookTag('{% code title="a b.js" lineNumbers="true" %}')).toEqual({
      end: false,
      name: 'code',
      attributes: { title: 'a b.js', lineNumbers: 'true' },
      source: '{% code title="a b.js" lineNumbers="true" %}',
    });
    expect(parseGitbookTag(`{% include "../x.md" %}`)).toMatchObject({ name: 'include', value: '../x.md' });
    expect(parseGitbookTag('{% endtabs %}')).toMatchObject({ end: true, name: 'tabs' });
    expect(parseGitbookTag('text {% hint %}')).toBeUndefined();
    expect(spaceGitbookTags('{% hint style="info" %}\nText\n{% endhint %}')).toBe(
      '{% hint style="info" %}\n\nText\n\n{% endhint %}\n',
    );
    const fenced = '~~~\n{% hint %}\n~~~\n> ```\n> {% tabs %}\n> ```';
    expect(spaceGitbookTags(fenced)).toBe(fenced);
  });
});

describe('math', () => {
  it('shows $$ math in the console as the published page does: the same MathML', async () => {
    const { rehypeMath } = await import('../../../shared/math');
    const markdown = 'Euler: $$e^{i\\pi}+1=0$$.\n\n$$\n\\frac{1}{2}\n$$\n\nCosts $5 and $10.\n';
    const shown = renderToStaticMarkup(
      <Markdown rawHtml={rehypeRaw} math={rehypeMath}>
        {markdown}
      </Markdown>,
    );
    const published = renderMarkdown(markdown, links).html;
    const maths = (html: string) => [...html.matchAll(/<math[^]*?<\/math>/g)].map((m) => m[0]);
    expect(maths(shown)).toHaveLength(2);
    expect(maths(shown)).toEqual(maths(published));
    expect(shown).toContain('Costs $5 and $10.');
  });
});
