import { describe, expect, it } from 'vitest';
import { PAGE_DESCRIPTION_MAX } from '../../../shared/contract/content.js';
import { preparePage } from './markdown.js';

const prepare = (markdown: string, title?: string) =>
  preparePage(
    { markdown, base: 'docs/page.md', ...(title ? { title } : {}) },
    {
      pages: [],
      targets: {},
      mode: 'archive',
    },
  );

describe('preparePage: front matter', () => {
  it('reads title and description, plain, quoted, folded or literal, and takes the block out of the body', () => {
    expect(prepare('---\ntitle: Install\ndescription: "How to: install it"\n---\n\nText.\n')).toMatchObject({
      title: 'Install',
      description: 'How to: install it',
      markdown: 'Text.',
    });
    expect(prepare("---\ntitle: 'Set up'\ndescription: >-\n  One line\n  folded.\n---\nText.\n")).toMatchObject({
      title: 'Set up',
      description: 'One line folded.',
      markdown: 'Text.',
    });
    expect(prepare('---\r\nTitle: Literal\r\ndescription: |\r\n  First\r\n  second\r\n---\r\nText.\r\n')).toMatchObject(
      {
        title: 'Literal',
        description: 'First\nsecond',
      },
    );
  });

  it("reads Docusaurus's front matter: numbers, lists and keys it does not use", () => {
    const page = prepare(
      [
        '---',
        'id: intro',
        'title: Getting started',
        'sidebar_label: Start',
        'sidebar_position: 2',
        'tags: [setup, "first steps"]',
        'keywords:',
        '  - install',
        '  - docs',
        'hide_table_of_contents: true',
        'description: Everything you need to begin.',
        '---',
        '',
        '# Getting started',
        '',
        'Welcome.',
        '',
      ].join('\n'),
    );
    expect(page).toMatchObject({
      title: 'Getting started',
      description: 'Everything you need to begin.',
      markdown: 'Welcome.',
    });
    expect(page.error).toBeUndefined();
  });

  it("reads GitBook's front matter: a folded description and nested layout keys", () => {
    const page = prepare(
      [
        '---',
        'description: >-',
        '  Learn how to configure the API client: keys, retries',
        '  and timeouts.',
        'icon: gear',
        'cover: ../.gitbook/assets/cover.png',
        'coverY: 0',
        'layout:',
        '  title:',
        '    visible: true',
        '  description:',
        '    visible: false',
        '  tableOfContents:',
        '    visible: true',
        '---',
        '',
        '# Configuration',
        '',
        'Set the key first.',
        '',
      ].join('\n'),
    );
    expect(page).toMatchObject({
      title: 'Configuration',
      description: 'Learn how to configure the API client: keys, retries and timeouts.',
      markdown: 'Set the key first.',
    });
  });

  it('keeps numbers and booleans as written, and ignores lists, mappings and empty values', () => {
    expect(prepare('---\ntitle: 1.0\ndescription: true\n---\nText.\n')).toMatchObject({
      title: '1.0',
      description: 'true',
    });
    const page = prepare('---\ntitle: [a, b]\ndescription:\n  nested: value\n---\nText.\n');
    expect(page.title).toBeUndefined();
    expect(page.description).toBeUndefined();
    expect(prepare('---\ntitle: ~\ndescription:\n---\nText.\n')).not.toHaveProperty('title');
  });

  it('takes invalid YAML out of the body without reading it, and never throws', () => {
    for (const block of ['title: [unclosed', 'title: Step 1: install', 'title: a\n\t- tab', 'key: *missing']) {
      const page = prepare(`---\n${block}\n---\n\nText.\n`);
      expect(page, block).toMatchObject({ markdown: 'Text.', blocks: [{ type: 'paragraph', markdown: 'Text.' }] });
      expect(page.title, block).toBeUndefined();
      expect(page.description, block).toBeUndefined();
      expect(page.error, block).toBeUndefined();
    }
  });

  it('takes a block that is not a mapping out of the body, and reads nothing from it', () => {
    const page = prepare('---\n- one\n- two\n---\nText.\n');
    expect(page).toMatchObject({ markdown: 'Text.' });
    expect(page.title).toBeUndefined();
  });

  it('reads no front matter unless the page starts with one (after a byte order mark)', () => {
    expect(prepare('\uFEFF---\ntitle: With BOM\n---\nText.\n')).toMatchObject({ title: 'With BOM', markdown: 'Text.' });
    const page = prepare('Intro.\n\n---\ntitle: Not front matter\n---\n');
    expect(page.title).toBeUndefined();
    expect(page.markdown).toContain('title: Not front matter');
  });

  it('leaves the title given by a table of contents, and cuts a long description', () => {
    const page = prepare(
      `---\ntitle: From front matter\ndescription: ${'x'.repeat(PAGE_DESCRIPTION_MAX + 100)}\n---\nText.\n`,
      'From TOC',
    );
    expect(page.title).toBeUndefined();
    expect(page.description).toHaveLength(PAGE_DESCRIPTION_MAX);
  });
});

describe('preparePage: titles', () => {
  it('takes the first heading of any level as the title, without HTML; a deeper one stays in the body', () => {
    const h1 = prepare('# Long-term support <a id="lts"></a>\n\nText.');
    expect(h1.title).toBe('Long-term support');
    expect(h1.markdown).toBe('Text.');
    const h2 = prepare('## LTS\n\nSupported versions.');
    expect(h2.title).toBe('LTS');
    // Links may name its section (`page.md#lts`): it stays.
    expect(h2.markdown).toBe('## LTS\n\nSupported versions.');
    expect(prepare('API\n---\n\nEndpoints.').title).toBe('API');
    expect(prepare('Text first.\n\n## Later').title).toBeUndefined();
  });
});
