import { describe, expect, it } from 'vitest';
import type { JSONContent } from '@tiptap/core';
import { PageMarkdown } from './markdown-blocks';

const pages = new PageMarkdown();

/** Real documentation written by others: the docs npm packages ship (read by Vite, as text). */
const shipped = import.meta.glob(
  ['/node_modules/pino/docs/**/*.md', '/node_modules/fastify/docs/**/*.md', '/node_modules/undici/docs/**/*.md'],
  { query: '?raw', import: 'default', eager: true },
) as Record<string, string>;

function realDocs(): Array<[string, string]> {
  return Object.entries(shipped);
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
    expect(types).toEqual(['heading', 'paragraph', 'markdownSource', 'bulletList', 'paragraph']);
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

  it('keeps nested GitBook blocks, single tags, HTML, math and footnotes as source', () => {
    const markdown = [
      '{% tabs %}',
      '{% tab title="A" %}',
      'Inside.',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '{% include "intro.md" %}',
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
    expect(page.doc.content!.map((n) => n.type)).toEqual(Array(6).fill('markdownSource'));
    expect(page.doc.content![0]!.attrs!.source).toContain('{% endtabs %}');
    expect(pages.save(page, page.doc)).toBe(markdown);
  });
});
