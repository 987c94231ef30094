import { describe, expect, it } from 'vitest';
import type { JSONContent } from '@tiptap/core';
import * as Y from 'yjs';
import { getSchema } from '@tiptap/core';
import { prosemirrorJSONToYDoc, yXmlFragmentToProseMirrorRootNode } from '@tiptap/y-tiptap';
import { editorExtensions, PageMarkdown } from './markdown-blocks';

const pages = new PageMarkdown();

/** Real documentation written by others: the docs npm packages ship (read by Vite, as text). */
const shipped = import.meta.glob(
  ['/node_modules/pino/docs/**/*.md', '/node_modules/fastify/docs/**/*.md', '/node_modules/undici/docs/**/*.md'],
  { query: '?raw', import: 'default', eager: true },
) as Record<string, string>;

/** Pages written as GitBook's Git Sync writes them (a glob of its own: Vite leaves node_modules out of mixed ones). */
const gitbookPages = import.meta.glob('/src/shared/fixtures/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

function realDocs(): Array<[string, string]> {
  return [...Object.entries(shipped), ...Object.entries(gitbookPages)];
}

describe('the visual editor reads and writes page markdown', () => {
  it('writes a page opened and saved unchanged exactly as it was, for real documentation', () => {
    const docs = realDocs();
    expect(docs.length).toBeGreaterThan(40);
    let sourceBlocks = 0;
    let blocks = 0;
    for (const [name, markdown] of docs) {
      const page = pages.load(markdown);
      expect(pages.save(page, page.doc), name).toBe(markdown);
      blocks += page.blocks.length;
      sourceBlocks += page.blocks.filter((b) => b.nodes[0]!.includes('"markdownSource"')).length;
    }
    // Most blocks are edited as what they are, not as source.
    expect(sourceBlocks / blocks).toBeLessThan(0.2);
  });

  it('writes a page unchanged after a trip through a shared document (live collaboration), for real documentation', () => {
    const schema = getSchema(editorExtensions());
    for (const [name, markdown] of realDocs()) {
      const page = pages.load(markdown);
      const shared = new Y.Doc();
      Y.applyUpdate(shared, Y.encodeStateAsUpdate(prosemirrorJSONToYDoc(schema, page.doc, 'default')));
      const back = yXmlFragmentToProseMirrorRootNode(shared.getXmlFragment('default'), schema).toJSON();
      expect(pages.save(page, back), name).toBe(markdown);
    }
  });

  it('writes only the block the writer changed, and keeps GitBook blocks as they are', () => {
    const markdown = [
      '# Title',
      '',
      'First   paragraph, written *loosely*.',
      '',
      '{% hint style="info" %}',
      'A **hint**.',
      '{% endhint %}',
      '',
      '* one',
      '* two',
      '',
      'Last paragraph.',
      '',
    ].join('\n');
    const page = pages.load(markdown);
    const types = page.doc.content!.map((n) => n.type);
    expect(types).toEqual(['heading', 'paragraph', 'hint', 'bulletList', 'paragraph']);
    const doc = structuredClone(page.doc) as JSONContent;
    doc.content![4] = { type: 'paragraph', content: [{ type: 'text', text: 'Last paragraph, edited.' }] };
    expect(pages.save(page, doc)).toBe(markdown.replace('Last paragraph.', 'Last paragraph, edited.'));
    // A new block after the list; one removed.
    doc.content!.splice(1, 1);
    doc.content!.push({ type: 'paragraph', content: [{ type: 'text', text: 'Added', marks: [{ type: 'bold' }] }] });
    const saved = pages.save(page, doc);
    expect(saved).toBe(
      [
        '# Title',
        '',
        '{% hint style="info" %}',
        'A **hint**.',
        '{% endhint %}',
        '',
        '* one',
        '* two',
        '',
        'Last paragraph, edited.',
        '',
        '**Added**',
        '',
      ].join('\n'),
    );
  });

  it('edits hints, tabs and steppers as blocks, and writes them back as GitBook writes them', () => {
    const markdown = [
      '{% tabs %}',
      '{% tab title="macOS" %}',
      'Run `brew install x`.',
      '{% endtab %}',
      '',
      '{% tab title="Linux" %}',
      '{% hint style="warning" %}',
      'Needs **root**.',
      '{% endhint %}',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '{% stepper %}',
      '{% step %}',
      '## Install',
      '',
      'Download it.',
      '{% endstep %}',
      '{% endstepper %}',
      '',
    ].join('\n');
    const page = pages.load(markdown);
    expect(page.doc.content!.map((n) => n.type)).toEqual(['tabs', 'stepper']);
    const tabs = page.doc.content![0]!;
    expect(tabs.content!.map((t) => t.attrs!.title)).toEqual(['macOS', 'Linux']);
    expect(tabs.content![1]!.content![0]!.type).toBe('hint');
    expect(tabs.content![1]!.content![0]!.attrs!.style).toBe('warning');
    expect(pages.save(page, page.doc)).toBe(markdown);
    // A hint made in the editor is written as GitBook writes one.
    const doc = structuredClone(page.doc) as JSONContent;
    doc.content!.push({
      type: 'hint',
      attrs: { style: 'success' },
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Done.' }] }],
    });
    expect(pages.save(page, doc)).toBe(markdown + '\n{% hint style="success" %}\nDone.\n{% endhint %}\n');
    // An empty hint (just inserted) reads back as one holding an empty paragraph.
    const empty = pages.load('{% hint style="info" %}\n\n{% endhint %}\n');
    expect(empty.doc.content).toEqual([{ type: 'hint', attrs: { style: 'info' }, content: [{ type: 'paragraph' }] }]);
  });

  it('edits columns as blocks, each column holding blocks, written as GitBook writes them', () => {
    const markdown = [
      '{% columns %}',
      '{% column width="33.3%" %}',
      'Left',
      '{% endcolumn %}',
      '{% column %}',
      '- right',
      '{% endcolumn %}',
      '{% endcolumns %}',
      '',
    ].join('\n');
    const page = pages.load(markdown);
    expect(page.doc.content!.map((n) => n.type)).toEqual(['columns']);
    expect(page.doc.content![0]!.content!.map((n) => [n.type, n.attrs])).toEqual([
      ['column', { width: '33.3%' }],
      ['column', { width: '' }],
    ]);
    expect(pages.save(page, page.doc)).toBe(markdown);
    const doc = structuredClone(page.doc) as JSONContent;
    doc.content![0]!.content![0]!.content = [{ type: 'paragraph', content: [{ type: 'text', text: 'Changed' }] }];
    // Changed, the block is written as its tabs are: a blank line between columns.
    expect(pages.save(page, doc)).toBe(
      markdown.replace('Left', 'Changed').replace('{% endcolumn %}\n{% column %}', '{% endcolumn %}\n\n{% column %}'),
    );
  });

  it('edits updates (a changelog) as blocks, each with its date, written as GitBook writes them', () => {
    const markdown = [
      '{% updates format="full" %}',
      '{% update date="2026-11-02" %}',
      '## Faster search',
      '',
      'Results in **half** the time.',
      '{% endupdate %}',
      '',
      '{% update date="2026-10-01" %}',
      'First release.',
      '{% endupdate %}',
      '{% endupdates %}',
      '',
    ].join('\n');
    const page = pages.load(markdown);
    expect(page.doc.content!.map((n) => [n.type, n.attrs])).toEqual([['updates', { format: 'full' }]]);
    const updates = page.doc.content![0]!.content!;
    expect(updates.map((u) => [u.type, u.attrs!.date])).toEqual([
      ['update', '2026-11-02'],
      ['update', '2026-10-01'],
    ]);
    expect(updates[0]!.content!.map((n) => n.type)).toEqual(['heading', 'paragraph']);
    expect(pages.save(page, page.doc)).toBe(markdown);
    // An update added in the editor, and one whose date was cleared: the date is written even when empty.
    const doc = structuredClone(page.doc) as JSONContent;
    doc.content![0]!.content!.unshift({
      type: 'update',
      attrs: { date: '' },
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Soon.' }] }],
    });
    expect(pages.save(page, doc)).toBe(
      markdown.replace(
        '{% updates format="full" %}\n',
        '{% updates format="full" %}\n{% update date="" %}\nSoon.\n{% endupdate %}\n\n',
      ),
    );
    // As GitBook's own changelogs are written: tags, and blank lines after the opening tags; an unchanged page is written
    // back as it was, and a changed update as the editor writes blocks (its list with `-`).
    const tagged = [
      '# Native iOS Changelog',
      '',
      '{% updates format="full" %}',
      '',
      '{% update date="2026-01-01" tags="added,fixes" %}',
      '',
      '## v2.1.11 - Latest',
      '',
      '* Crash guards.',
      '{% endupdate %}',
      '{% endupdates %}',
      '',
    ].join('\n');
    const changelog = pages.load(tagged);
    const update = changelog.doc.content![1]!.content![0]!;
    expect(update.attrs).toEqual({ date: '2026-01-01', tags: 'added,fixes' });
    expect(pages.save(changelog, changelog.doc)).toBe(tagged);
    const edited = structuredClone(changelog.doc) as JSONContent;
    edited.content![1]!.content![0]!.content![0]!.content![0]!.text = 'v2.1.12';
    expect(pages.save(changelog, edited)).toContain(
      '{% update date="2026-01-01" tags="added,fixes" %}\n## v2.1.12\n\n- Crash guards.\n{% endupdate %}',
    );
    // An update outside updates is not one of its blocks: it stays a block of source.
    const alone = pages.load('{% update date="2026-01-01" %}\nHi.\n{% endupdate %}\n');
    expect(alone.doc.content!.map((n) => n.type)).toEqual(['markdownSource']);
  });

  it('edits expandables as blocks with their title, written as GitBook writes them', () => {
    const markdown = [
      '<details>',
      '',
      '<summary>Why &amp; how</summary>',
      '',
      'Because.',
      '',
      '- a',
      '',
      '</details>',
      '',
    ].join('\n');
    const page = pages.load(markdown);
    expect(page.doc.content!.map((n) => n.type)).toEqual(['expandable']);
    expect(page.doc.content![0]!.attrs!.title).toBe('Why & how');
    expect(pages.save(page, page.doc)).toBe(markdown);
    const doc = structuredClone(page.doc) as JSONContent;
    doc.content![0]!.attrs!.title = 'Why <not>';
    expect(pages.save(page, doc)).toBe(markdown.replace('Why &amp; how', 'Why &lt;not&gt;'));
    // Written otherwise (on one line), it stays source.
    expect(pages.load('<details><summary>More</summary>Hidden</details>\n').doc.content![0]!.type).toBe(
      'markdownSource',
    );
  });

  it('edits embeds, files, page references, includes and OpenAPI operations as blocks of fields, written as GitBook writes them', () => {
    const markdown = [
      '{% embed url="https://www.youtube.com/watch?v=abc" %}',
      '',
      '{% embed url="https://vimeo.com/1" %}',
      'A talk',
      '{% endembed %}',
      '',
      '{% file src="../.gitbook/assets/guide.pdf" %}',
      'The guide',
      '{% endfile %}',
      '',
      '{% content-ref url="other.md" %}',
      '[Other \\[page\\]](other.md)',
      '{% endcontent-ref %}',
      '',
      '{% include "../.gitbook/includes/shared.md" %}',
      '',
      '{% openapi-operation spec="petstore" path="/pets" method="get" %}',
      '[OpenAPI petstore](https://example.com/petstore.json)',
      '{% endopenapi-operation %}',
      '',
    ].join('\n');
    const page = pages.load(markdown);
    expect(page.doc.content!.map((n) => [n.type, n.attrs])).toEqual([
      ['embed', { url: 'https://www.youtube.com/watch?v=abc', caption: '' }],
      ['embed', { url: 'https://vimeo.com/1', caption: 'A talk' }],
      ['file', { src: '../.gitbook/assets/guide.pdf', caption: 'The guide' }],
      ['content-ref', { url: 'other.md', title: 'Other [page]' }],
      ['include', { path: '../.gitbook/includes/shared.md' }],
      [
        'openapi-operation',
        {
          spec: 'petstore',
          path: '/pets',
          method: 'get',
          link: '[OpenAPI petstore](https://example.com/petstore.json)',
        },
      ],
    ]);
    expect(pages.save(page, page.doc)).toBe(markdown);
    // Fields changed: each block written anew, as GitBook writes it.
    const doc = structuredClone(page.doc) as JSONContent;
    doc.content![0]!.attrs = { url: 'https://example.com/v', caption: 'Now with a caption' };
    doc.content![1]!.attrs = { url: 'https://vimeo.com/1', caption: '' };
    doc.content![2]!.attrs = { src: '/files/f1', caption: '' };
    doc.content![3]!.attrs = { url: '/pages/p1', title: 'Setup' };
    doc.content![4]!.attrs = { path: 'other-include' };
    doc.content![5]!.attrs = { ...doc.content![5]!.attrs, method: 'post' };
    expect(pages.save(page, doc)).toBe(
      [
        '{% embed url="https://example.com/v" %}',
        'Now with a caption',
        '{% endembed %}',
        '',
        '{% embed url="https://vimeo.com/1" %}',
        '',
        '{% file src="/files/f1" %}',
        '{% endfile %}',
        '',
        '{% content-ref url="/pages/p1" %}',
        '[Setup](/pages/p1)',
        '{% endcontent-ref %}',
        '',
        '{% include "other-include" %}',
        '',
        '{% openapi-operation spec="petstore" path="/pets" method="post" %}',
        '[OpenAPI petstore](https://example.com/petstore.json)',
        '{% endopenapi-operation %}',
        '',
      ].join('\n'),
    );
    // Written otherwise (a caption of several lines, a link elsewhere), they stay source.
    for (const other of [
      '{% file src="a.pdf" %}\nOne\n\nTwo\n{% endfile %}\n',
      '{% content-ref url="a.md" %}\n[A](b.md)\n{% endcontent-ref %}\n',
    ]) {
      expect(pages.load(other).doc.content!.map((n) => n.type)).toEqual(['markdownSource']);
    }
  });

  it('edits images with captions (figures) as blocks with their caption, written as GitBook writes them', () => {
    const markdown = [
      '<figure><img src="../.gitbook/assets/b.png" alt="B &amp; C" width="300"><figcaption><p>The caption</p></figcaption></figure>',
      '',
      '<figure><img src="/files/f1" alt=""></figure>',
      '',
    ].join('\n');
    const page = pages.load(markdown);
    expect(page.doc.content!.map((n) => [n.type, n.attrs])).toEqual([
      ['figure', { src: '../.gitbook/assets/b.png', alt: 'B & C', width: '300', height: '', caption: 'The caption' }],
      ['figure', { src: '/files/f1', alt: '', width: '', height: '', caption: '' }],
    ]);
    expect(pages.save(page, page.doc)).toBe(markdown);
    const doc = structuredClone(page.doc) as JSONContent;
    doc.content![0]!.attrs!.caption = 'A <new> caption';
    doc.content![1]!.attrs!.caption = 'Now captioned';
    expect(pages.save(page, doc)).toBe(
      markdown
        .replace('The caption', 'A &lt;new&gt; caption')
        .replace('alt=""></figure>', 'alt=""><figcaption><p>Now captioned</p></figcaption></figure>'),
    );
    // A dark-mode picture, or markup in the caption: source.
    for (const other of [
      '<figure><picture><source srcset="d.png" media="(prefers-color-scheme: dark)"><img src="l.png" alt=""></picture></figure>\n',
      '<figure><img src="a.png" alt=""><figcaption><p><strong>Bold</strong></p></figcaption></figure>\n',
    ]) {
      expect(pages.load(other).doc.content!.map((n) => n.type)).toEqual(['markdownSource']);
    }
  });

  it('edits code blocks with their language, and GitBook’s title, line numbers and wrapping, written as GitBook writes them', () => {
    const markdown = [
      '```js',
      'let a = 1;',
      '```',
      '',
      '{% code title="app.ts" lineNumbers="true" %}',
      '```ts',
      'const b: number = 2;',
      '```',
      '{% endcode %}',
      '',
      '{% code overflow="wrap" %}',
      '````md',
      '```',
      'nested',
      '```',
      '````',
      '{% endcode %}',
      '',
      '{% code %}',
      '```',
      'No attribute: kept as written.',
      '```',
      '{% endcode %}',
      '',
      '{% code title="x" lineNumbers="false" %}',
      '```',
      'Line numbers off, as GitBook never writes them: kept as written.',
      '```',
      '{% endcode %}',
      '',
    ].join('\n');
    const page = pages.load(markdown);
    expect(page.doc.content!.map((n) => [n.type, n.attrs])).toEqual([
      ['codeBlock', { language: 'js', title: '', lineNumbers: '', overflow: '' }],
      ['codeBlock', { language: 'ts', title: 'app.ts', lineNumbers: 'true', overflow: '' }],
      ['codeBlock', { language: 'md', title: '', lineNumbers: '', overflow: 'wrap' }],
      ['markdownSource', undefined],
      ['markdownSource', undefined],
    ]);
    expect(page.doc.content![2]!.content![0]!.text).toBe('```\nnested\n```');
    expect(pages.save(page, page.doc)).toBe(markdown);
    // Changed: written anew, as GitBook writes it.
    const doc = structuredClone(page.doc) as JSONContent;
    doc.content![0]!.attrs = { language: 'python', title: 'run.py', lineNumbers: 'true', overflow: 'wrap' };
    doc.content![1]!.attrs = { language: 'ts', title: '', lineNumbers: '', overflow: '' };
    doc.content![2]!.content![0]!.text = '```\nnested, changed\n```';
    const saved = pages.save(page, doc);
    expect(saved).toContain(
      '{% code title="run.py" lineNumbers="true" overflow="wrap" %}\n\n```python\nlet a = 1;\n```\n\n{% endcode %}\n\n' +
        '```ts\nconst b: number = 2;\n```\n\n' +
        '{% code overflow="wrap" %}\n\n````md\n```\nnested, changed\n```\n````\n\n{% endcode %}\n\n{% code %}',
    );
    expect(pages.load(saved).doc.content!.map((n) => n.attrs?.title ?? null)).toEqual(['run.py', '', '', null, null]);
  });

  it('keeps other GitBook blocks, single tags, HTML, math and footnotes as source, edited as text', () => {
    const markdown = [
      '{% tab title="A" %}',
      'A tab outside tabs.',
      '{% endtab %}',
      '',
      '{% hint style="purple" %}',
      'An unknown style.',
      '{% endhint %}',
      '',
      '{% embed url="https://example.com/intro" full="true" %}',
      '',
      '<details><summary>More</summary>Hidden</details>',
      '',
      '$$',
      'a^2',
      '$$',
      '',
      'Text with a note[^1].',
      '',
      '[^1]: The note.',
    ].join('\n');
    const page = pages.load(markdown);
    expect(page.doc.content!.map((n) => n.type)).toEqual(Array(7).fill('markdownSource'));
    expect(page.doc.content![0]!.content![0]!.text).toContain('{% endtab %}');
    expect(pages.save(page, page.doc)).toBe(markdown);
    // Source edited as text is written as typed.
    const doc = structuredClone(page.doc) as JSONContent;
    doc.content![2] = {
      type: 'markdownSource',
      content: [{ type: 'text', text: '{% embed url="https://example.com/outro" full="true" %}' }],
    };
    expect(pages.save(page, doc)).toBe(markdown.replace('/intro', '/outro'));
  });
});

describe('integration blocks in the editor', () => {
  it('reads them as blocks of their own (over lines too), keeps them as written, writes changed props on one line', () => {
    const markdown = [
      'Before.',
      '',
      '{% @mermaid/diagram content="graph TD',
      '  A["*x*"] --> B" %}',
      '',
      '{% @github-files/code-block url="https://github.com/a/b/blob/main/x_y_.ts" %}',
      '',
      'After.',
      '',
    ].join('\n');
    const page = pages.load(markdown);
    expect(page.doc.content!.map((n) => n.type)).toEqual(['paragraph', 'integration', 'integration', 'paragraph']);
    expect(page.doc.content![1]!.attrs).toEqual({
      integration: 'mermaid',
      block: 'diagram',
      props: JSON.stringify({ content: 'graph TD\n  A["*x*"] --> B' }),
      unfurl: '',
    });
    expect(pages.save(page, page.doc)).toBe(markdown);
    const doc = structuredClone(page.doc) as JSONContent;
    doc.content![1]!.attrs!.props = JSON.stringify({ content: 'graph LR\n  A --> "B"' });
    expect(pages.save(page, doc)).toBe(
      markdown.replace('content="graph TD\n  A["*x*"] --> B"', 'content="graph LR\\n  A --> \\"B\\""'),
    );
    // Made from a pasted link and not yet rendered: the link, as an embed, is what is written.
    doc.content![2]!.attrs = {
      ...doc.content![2]!.attrs,
      props: '{}',
      unfurl: 'https://github.com/a/b/blob/main/c.ts',
    };
    expect(pages.save(page, doc)).toContain('{% embed url="https://github.com/a/b/blob/main/c.ts" %}');
  });
});
