import { describe, expect, it } from 'vitest';
import { extractSections } from './extract.js';
import { renderMarkdown } from '../sites/render.js';

const links = {
  page: () => undefined,
  file: () => undefined,
  fileNamed: () => undefined,
  currentPath: '',
  siteRoot: '',
};

describe('searchable sections of a page body', () => {
  const markdown = [
    'Intro with **bold**, `code` and a [link](https://example.com). <b>raw</b> ![logo](logo.png)',
    '',
    '## Install the `cli`',
    '',
    '- one\n- two',
    '',
    '| a | b |\n| - | - |\n| c | d |',
    '',
    '```sh\nnpm install\n```',
    '',
    '## Install the `cli`',
    '',
    '> quoted\n>\n> ### Nested heading',
    '',
    '## Ünïcode & <stuff>',
    '',
    'Line\u0002with\u001econtrols',
  ].join('\n');

  it('splits at top-level headings, with plain text and no markdown syntax or raw HTML', () => {
    const sections = extractSections(markdown);
    expect(sections.map((s) => s.heading)).toEqual(['', 'Install the cli', 'Install the cli', 'Ünïcode &']);
    expect(sections[0]!.text).toBe('Intro with bold, code and a link. raw logo');
    expect(sections[1]!.text).toBe('one two a b c d npm install');
    expect(sections[2]!.text).toBe('quoted Nested heading');
    // Control characters (the index's separator and marks among them) become spaces.
    expect(sections[3]!.text).toBe('Line with controls');
  });

  it('gives each heading the anchor the published page gives it', () => {
    const rendered = renderMarkdown(markdown, links).headings.map((h) => h.id);
    const anchors = extractSections(markdown).map((s) => s.anchor);
    expect(anchors[0]).toBe('');
    // Top-level headings only start sections; the nested one counts for uniqueness all the same.
    expect(anchors.slice(1)).toEqual([rendered[0], rendered[1], rendered[3]]);
    // GitHub's ids: repeats numbered from -1, letters of every script kept, each space a dash.
    expect(anchors.slice(1)).toEqual(['install-the-cli', 'install-the-cli-1', 'ünïcode-']);
  });

  it('gives a heading the id it names, as the published page does', () => {
    const named =
      '## Hooks <a href="#hooks-x" id="hooks-x"></a>\n\n## Old <a name="legacy"></a>\n\n## Custom {#mine}\n\n## Request/Reply Hooks';
    const anchors = extractSections(named).map((s) => s.anchor);
    expect(anchors).toEqual(['', 'hooks-x', 'legacy', 'mine', 'requestreply-hooks']);
    expect(anchors.slice(1)).toEqual(renderMarkdown(named, links).headings.map((h) => h.id));
  });

  it('reads math as its formula, parsed as every renderer parses the body (prices in prose stay text)', () => {
    const [section] = extractSections('It costs $5 and $6.\n\n$$\ne = mc^2\n$$\n\nInline $$a^2 + b^2$$ too.\n');
    expect(section!.text).toBe('It costs $5 and $6. e = mc^2 Inline a^2 + b^2 too.');
  });

  it('gives an empty body one empty section', () => {
    expect(extractSections('')).toEqual([{ anchor: '', heading: '', text: '' }]);
  });
});
