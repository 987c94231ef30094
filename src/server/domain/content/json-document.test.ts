import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../../shared/document/from-markdown.js';
import { documentToMarkdown, DocumentError, MAX_DEPTH } from '../../../shared/document/to-markdown.js';
import type { DocElement, DocNode } from '../../../shared/document/model.js';

const require = createRequire(import.meta.url);
const fixture = (name: string) => fs.readFileSync(new URL(`../../../shared/fixtures/${name}`, import.meta.url), 'utf8');

/** The contract's own schema of a JSON document (`@gitbook/api` 0.143.2, `spec/openapi.json`). */
function contractValidator(): ValidateFunction {
  const spec = JSON.parse(fs.readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as object;
  const ajv = new Ajv({ strict: false, logger: false });
  ajv.addSchema(spec, 'openapi');
  return ajv.compile({ $ref: 'openapi#/components/schemas/JSONDocument' });
}
const valid = contractValidator();

function expectValid(document: unknown, name: string) {
  const ok = valid(document);
  expect(ok ? [] : [name, ...(valid.errors ?? []).slice(0, 3)]).toEqual([]);
}

/** Every node of a document, fragments included. */
function* nodes(list: DocNode[]): Generator<DocNode> {
  for (const node of list) {
    yield node;
    if (node.object === 'text') continue;
    yield* nodes(node.nodes ?? []);
    for (const f of node.fragments ?? []) yield* nodes(f.nodes);
  }
}
const all = (markdown: string) => [...nodes(markdownToDocument(markdown).nodes as unknown as DocNode[])];
const ofType = (markdown: string, type: string) =>
  all(markdown).filter((n): n is DocElement => n.object !== 'text' && n.type === type);

describe('the JSON document of a page', () => {
  it('writes back, byte for byte, the markdown it reads in its own form, every construct', () => {
    const canonical = fixture('document-canonical.md');
    const document = markdownToDocument(canonical);
    expectValid(document, 'canonical');
    expect(documentToMarkdown(document)).toBe(canonical);
    // The sources it was written from read as the same document.
    expect(markdownToDocument(fixture('document-sources.md'))).toEqual(document);
  });

  it('reads GitBook blocks as the model’s blocks, valid for the contract, and keeps unknown blocks as text', () => {
    const markdown = fixture('gitbook-blocks.md');
    const document = markdownToDocument(markdown);
    expectValid(document, 'gitbook-blocks');
    const types = new Set(all(markdown).map((n) => (n.object === 'text' ? 'text' : n.type)));
    for (const type of ['hint', 'tabs', 'tabs-item', 'code', 'stepper', 'stepper-step', 'embed', 'content-ref']) {
      expect(types).toContain(type);
    }
    expect(ofType(markdown, 'reusable-content')[0]!.data).toEqual({
      ref: { kind: 'reusable-content', reusableContent: '../.gitbook/includes/shared.md' },
    });
    expect(ofType(markdown, 'code').find((c) => c.data?.title)!.data).toEqual({
      syntax: 'js',
      title: 'app.js',
      lineNumbers: true,
    });
    // A `{% hint %}` in a fenced block is code, as written.
    const fenced = ofType(markdown, 'code').find((c) => c.data?.syntax === 'markdown')!;
    expect(documentToMarkdown({ nodes: [fenced] })).toContain('{% hint style="info" %}\nInside code');
    // An unknown block is its tag's text, what it holds, and its end tag: written back as it was.
    const texts = all(markdown).flatMap((n) => (n.object === 'text' ? n.leaves.map((l) => l.text) : []));
    expect(texts).toContain('{% fancy %}');
    expect(texts).toContain('{% endfancy %}');
    // Written back and read again: the same document.
    expect(markdownToDocument(documentToMarkdown(document))).toEqual(document);
  });

  it('keys top-level blocks by where they start, and gives heading ids as the published page does', () => {
    const markdown =
      '# Title\n\n{% hint style="info" %}\nHi\n{% endhint %}\n\n## Request/Reply Hooks\n\n## Request/Reply Hooks\n';
    const starts = [0, 9, 51, 75];
    const document = markdownToDocument(markdown, {
      keyAt: (offset) => `k${starts.filter((s) => s <= offset).length - 1}`,
    });
    const top = document.nodes as unknown as DocElement[];
    expect(top.map((n) => [n.key, n.type])).toEqual([
      ['k0', 'heading-1'],
      ['k1', 'hint'],
      ['k2', 'heading-2'],
      ['k3', 'heading-2'],
    ]);
    expect(top.slice(2).map((n) => n.meta?.id)).toEqual(['requestreply-hooks', 'requestreply-hooks-1']);
  });

  it('fits what GitBook’s model cannot hold where it is, losing no content', () => {
    // Code in a quote is shown between two quotes; a figure in a list item is an inline image with its caption.
    const quote = markdownToDocument('> Before\n>\n> ```js\n> x()\n> ```\n>\n> After\n');
    expect((quote.nodes as unknown as DocElement[]).map((n) => n.type)).toEqual(['blockquote', 'code', 'blockquote']);
    expectValid(quote, 'quote');
    const list =
      '1. Open it\n\n   <figure><img src="https://x.test/a.png" alt=""><figcaption><p>The screen</p></figcaption></figure>\n2. Close it\n';
    const images = ofType(list, 'inline-image');
    expect(images.map((i) => i.data)).toEqual([
      { ref: { kind: 'url', url: 'https://x.test/a.png' }, caption: 'The screen' },
    ]);
    expectValid(markdownToDocument(list), 'list');
    expect(documentToMarkdown(markdownToDocument(list))).toContain('<figcaption><p>The screen</p></figcaption>');
  });

  it('refuses a document it cannot write, naming the node', () => {
    const bad = (nodes: unknown[]) => {
      try {
        documentToMarkdown({ nodes });
        return undefined;
      } catch (error) {
        return error instanceof DocumentError ? error.message : String(error);
      }
    };
    expect(
      bad([
        { object: 'block', type: 'paragraph', nodes: [] },
        { object: 'block', type: 'nonsense' },
      ]),
    ).toBe('nodes[1]: blocks of type "nonsense" are not supported');
    expect(bad([{ object: 'block', type: 'list-unordered', nodes: [{ object: 'block', type: 'paragraph' }] }])).toBe(
      'nodes[0].nodes[0]: a list holds list items',
    );
    expect(bad([{ object: 'block', type: 'images', nodes: [{ object: 'block', type: 'image', data: {} }] }])).toBe(
      'nodes[0].nodes[0].data.ref: a reference needs a kind',
    );
    let deep: unknown = { object: 'block', type: 'paragraph', nodes: [] };
    for (let i = 0; i < MAX_DEPTH + 2; i++) deep = { object: 'block', type: 'blockquote', nodes: [deep] };
    expect(bad([deep])).toMatch(/blocks may nest 48 deep at most$/);
  });
});

describe('real documentation as JSON documents', () => {
  const docsOf = (pkg: string) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'docs');
  const files = (root: string): string[] =>
    fs.readdirSync(root, { withFileTypes: true }).flatMap((e) => {
      const file = path.join(root, e.name);
      return e.isDirectory() ? files(file) : file.endsWith('.md') ? [file] : [];
    });

  it('reads the docs npm packages ship as valid documents that write back to the same document', () => {
    const invalid: string[] = [];
    const changed: string[] = [];
    let read = 0;
    for (const pkg of ['fastify', 'undici']) {
      for (const file of files(docsOf(pkg))) {
        read++;
        const document = markdownToDocument(fs.readFileSync(file, 'utf8'));
        if (!valid(document)) invalid.push(file);
        if (JSON.stringify(markdownToDocument(documentToMarkdown(document))) !== JSON.stringify(document)) {
          changed.push(path.relative(path.dirname(docsOf(pkg)), file));
        }
      }
    }
    expect(read).toBeGreaterThan(70);
    expect(invalid).toEqual([]);
    expect(changed).toEqual([]);
  });
});

describe('a page’s own HTML', () => {
  it('cannot break the reading by writing the attributes GitBook blocks are read from', () => {
    for (const attrs of ['{bad', '[1]', '{"style":{"x":1}}', 'null']) {
      const markdown = `<div data-gb="hint" data-gb-end="true" data-gb-attrs='${attrs}'>\n\nText\n\n</div>\n`;
      const document = markdownToDocument(markdown);
      expect(all(markdown).some((n) => n.object === 'text' && n.leaves.some((l) => l.text === 'Text'))).toBe(true);
      expectValid(document, attrs);
    }
  });
});

describe('math in documents', () => {
  it('reads $$ math as math blocks and inline math, and writes them back', () => {
    const markdown = 'Euler: $$e^{i\\pi}+1=0$$ inline.\n\n$$\n\\int_0^1 x\\,dx\n$$\n\nCosts $5 and $10.\n';
    const document = markdownToDocument(markdown);
    expectValid(document, 'math');
    expect(ofType(markdown, 'math').map((n) => n.data)).toEqual([{ formula: '\\int_0^1 x\\,dx' }]);
    expect(ofType(markdown, 'inline-math').map((n) => n.data)).toEqual([{ formula: 'e^{i\\pi}+1=0' }]);
    expect(documentToMarkdown(document)).toBe(markdown);
  });
});

describe('integration blocks in documents', () => {
  it('reads GitBook’s tags (props over lines, JSON values, escapes) and writes them back on one line', () => {
    const markdown = [
      'Before.',
      '{% @mermaid/diagram content="graph TD',
      '    A-->B',
      '    B-->|say \\"hi\\"| C',
      '    C["HR: log in"] --> D" %}',
      '',
      '{% @github-files/code-block url="https://github.com/a/b/blob/main/x.ts" lines=3 wrap=true data={"a":[1,"%}"]} %}',
      '',
      '```md',
      '{% @mermaid/diagram content="in code" %}',
      '```',
      '',
    ].join('\n');
    const document = markdownToDocument(markdown);
    // The contract's PlainObject is a `oneOf` in which any string or number is also a PlainObject (it has no
    // `type`): no block with such a prop passes it. The rest of the block is held to it.
    const propless = JSON.parse(
      JSON.stringify(document).replace(/"props":\{"content":"[^}]*\}/, '"props":{}'),
    ) as unknown;
    expectValid(
      { ...(propless as object), nodes: (propless as { nodes: unknown[] }).nodes.slice(0, 2) },
      'integration',
    );
    expect(ofType(markdown, 'integration').map((n) => n.data)).toEqual([
      {
        integration: 'mermaid',
        block: 'diagram',
        props: { content: 'graph TD\n    A-->B\n    B-->|say "hi"| C\n    C["HR: log in"] --> D' },
      },
      {
        integration: 'github-files',
        block: 'code-block',
        props: { url: 'https://github.com/a/b/blob/main/x.ts', lines: 3, wrap: true, data: { a: [1, '%}'] } },
      },
    ]);
    const written = documentToMarkdown(document);
    expect(written).toContain(
      '{% @mermaid/diagram content="graph TD\\n    A-->B\\n    B-->|say \\"hi\\"| C\\n    C[\\"HR: log in\\"] --> D" %}',
    );
    expect(written).toContain('{% @mermaid/diagram content="in code" %}\n```');
    expect(markdownToDocument(written)).toEqual(document);
  });

  it('keeps a tag that never closes, or is not one, as the text written', () => {
    const markdown = '{% @mermaid/diagram content="graph TD\n\nA-->B\n\nText after.\n';
    expect(ofType(markdown, 'integration')).toEqual([]);
    expect(documentToMarkdown(markdownToDocument(markdown))).toContain('Text after.');
  });

  it('refuses a block that names no integration, naming the field', () => {
    const block = {
      object: 'block',
      type: 'integration',
      isVoid: true,
      data: { integration: 'Bad Name', block: 'x', props: {} },
    };
    expect(() => documentToMarkdown({ nodes: [block] } as never)).toThrow(DocumentError);
    try {
      documentToMarkdown({ nodes: [block] } as never);
    } catch (err) {
      expect((err as DocumentError).message).toMatch(/integration/);
    }
  });
});
