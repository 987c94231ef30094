import { describe, expect, it } from 'vitest';
import {
  codeblockBlocks,
  embedsAsBlocks,
  fencesAsBlocks,
  spaceGitbookTags,
  tightGitbookTags,
  unfurlBlocks,
  unfurls,
} from './gitbook-blocks.js';

describe('tightGitbookTags', () => {
  it('writes blocks as GitBook does: no blank line inside a block’s tags, one between its items', () => {
    const spaced = [
      '{% tabs %}',
      '',
      '{% tab title="curl" %}',
      '',
      '```sh',
      'curl example.com',
      '',
      '{% endtab %}',
      '```',
      '',
      '{% endtab %}',
      '',
      '{% tab title="Text" %}',
      '',
      'Some text.',
      '',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '{% include "support.md" %}',
      '',
      'After.',
    ].join('\n');
    expect(tightGitbookTags(spaced)).toBe(
      [
        '{% tabs %}',
        '{% tab title="curl" %}',
        '```sh',
        'curl example.com',
        '',
        '{% endtab %}',
        '```',
        '{% endtab %}',
        '',
        '{% tab title="Text" %}',
        'Some text.',
        '{% endtab %}',
        '{% endtabs %}',
        '',
        '{% include "support.md" %}',
        '',
        'After.',
      ].join('\n'),
    );
    // Read back, the blocks are the same: spaced out again (as the reader does) it is the text spaced out.
    const paragraphs = (markdown: string) => spaceGitbookTags(markdown).replace(/\n{3,}/g, '\n\n');
    expect(paragraphs(tightGitbookTags(spaced))).toBe(paragraphs(spaced));
  });

  it('leaves markdown without GitBook blocks as it is', () => {
    expect(tightGitbookTags('# Title\n\n\nText.\n')).toBe('# Title\n\n\nText.\n');
  });
});

describe('unfurls', () => {
  it('matches URLs as GitBook reads urlUnfurl patterns: * within a segment, ** across them', () => {
    const github = 'https://github.com/*/*/blob/**';
    expect(unfurls(github, 'https://github.com/GitbookIO/integrations/blob/main/README.md')).toBe(true);
    expect(unfurls(github, 'https://github.com/GitbookIO/blob/main')).toBe(false);
    expect(unfurls(github, 'https://github.com.evil.test/a/b/blob/x')).toBe(false);
    expect(unfurls('https://www.figma.com/file/*', 'https://www.figma.com/file/abc')).toBe(true);
    expect(unfurls('https://www.figma.com/file/*', 'https://wwwxfigma.com/file/abc')).toBe(false);
    expect(unfurls('https://runkit.com/**', 'https://runkit.com/a/b?c=d')).toBe(true);
  });
});

describe('fencesAsBlocks', () => {
  it('shows the fences of a language an installed integration claims as its block, and nothing else', () => {
    const blocks = codeblockBlocks([
      { name: 'plantuml', blocks: [{ id: 'diagram', markdown: { codeblock: 'plantuml', body: 'content' } }] },
      { name: 'mermaid', blocks: [{ id: 'diagram', markdown: { codeblock: 'mermaid', body: 'content' } }] },
      { name: 'other-mermaid', blocks: [{ id: 'x', markdown: { codeblock: 'mermaid', body: 'src' } }] },
      { name: 'plain', blocks: [{ id: 'y' }] },
    ]);
    expect(blocks.get('mermaid')).toEqual({ integration: 'mermaid', block: 'diagram', body: 'content' });
    const markdown = [
      'Text.',
      '```mermaid',
      'graph TD',
      '  A["x"] --> B',
      '```',
      '',
      '````md',
      '```mermaid',
      'shown as code',
      '```',
      '````',
      '',
      '```js',
      'code()',
      '```',
      '```mermaid',
      'never closed',
    ].join('\n');
    const shown = fencesAsBlocks(markdown, blocks);
    expect(shown.split('\n').slice(0, 2)).toEqual([
      'Text.',
      '{% @mermaid/diagram content="graph TD\\n  A[\\"x\\"] --> B" %}',
    ]);
    expect(shown).toContain('````md\n```mermaid\nshown as code\n```\n````');
    expect(shown).toContain('```js\ncode()\n```');
    expect(shown.endsWith('```mermaid\nnever closed')).toBe(true);
    expect(fencesAsBlocks(markdown, new Map())).toBe(markdown);
  });
});

describe('embedsAsBlocks', () => {
  it('shows an embed of a link an installed block unfurls as that block, never one with a caption or in code', () => {
    const blocks = unfurlBlocks([
      { name: 'github-files', blocks: [{ id: 'code', urlUnfurl: ['https://github.com/*/*/blob/**'] }] },
    ]);
    const link = 'https://github.com/a/b/blob/main/c.ts';
    const markdown = [
      `{% embed url="${link}" %}`,
      '',
      `{% embed url="${link}" %}`,
      'Its caption',
      '{% endembed %}',
      '',
      '```md',
      `{% embed url="${link}" %}`,
      '```',
      '{% embed url="https://example.com/x" %}',
    ].join('\n');
    const shown = fencesAsBlocks(embedsAsBlocks(markdown, blocks), new Map()).split('\n');
    expect(shown[0]).toBe(`{% @github-files/code $unfurl="${link}" %}`);
    expect(shown.slice(2, 5)).toEqual([`{% embed url="${link}" %}`, 'Its caption', '{% endembed %}']);
    expect(shown[7]).toBe(`{% embed url="${link}" %}`);
    expect(shown[9]).toBe('{% embed url="https://example.com/x" %}');
    expect(embedsAsBlocks(markdown, [])).toBe(markdown);
  });
});
