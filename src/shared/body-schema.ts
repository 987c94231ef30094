import { defaultSchema, type Schema } from 'hast-util-sanitize';

type Attributes = NonNullable<Schema['attributes']>[string];

/** The attributes GitHub's schema allows on `tag`, with `classes` allowed too (in its one `className` rule). */
function withClasses(tag: string, classes: Array<string | RegExp>, more: Attributes = []): Attributes {
  const rules = [...(defaultSchema.attributes?.[tag] ?? [])];
  const at = rules.findIndex((r) => Array.isArray(r) && r[0] === 'className');
  if (at >= 0) rules[at] = [...(rules[at] as unknown[]), ...classes] as Attributes[number];
  else rules.push(['className', ...classes]);
  return [...rules, ...more];
}

const BLOCK_CLASS = /^gb-[a-z-]+$/;

/**
 * What a page body may hold once its HTML is parsed: GitHub's schema, with ids kept as written, and the elements and
 * classes of the blocks this product reads (shared/gitbook-blocks.ts: callouts, `gb-…`). The ids of anchors written
 * in a page (`<a id="x">`, `<a name="x">`) are what links name (`#x`), as are headings' (given after sanitizing);
 * footnotes' ids and the links to them come prefixed already (`user-content-fn-1`, from mdast-util-to-hast), and a
 * second prefix broke them. A class written in the page's own HTML is kept only when it is one of ours (so it
 * looks like the block it names), never any other. The published page (render.ts) and the console's
 * (markdown-renderer.tsx) use this one schema.
 */
export const bodySchema: Schema = {
  ...defaultSchema,
  clobber: [],
  tagNames: [...(defaultSchema.tagNames ?? []), 'figure', 'figcaption', 'section'],
  attributes: {
    ...defaultSchema.attributes,
    // An integration's block (shared/gitbook-blocks.ts): what it names, for its integration to render it.
    div: withClasses(
      'div',
      [/^callout(-(note|tip|important|warning|caution))?$/, BLOCK_CLASS],
      [['role', 'note'], 'dataIntegrationBlock', 'dataIntegrationProps'],
    ),
    p: withClasses('p', ['callout-title', BLOCK_CLASS]),
    figure: withClasses('figure', [BLOCK_CLASS]),
    section: withClasses('section', [BLOCK_CLASS]),
    ol: withClasses('ol', [BLOCK_CLASS]),
    li: withClasses('li', [BLOCK_CLASS]),
    // Math (mdast-util-math): KaTeX replaces it once the tree is clean (shared/math.ts).
    code: withClasses('code', ['math-inline', 'math-display']),
    // A `<picture>`'s sources say when they apply (`media="(prefers-color-scheme: dark)"`): without it, the first
    // one would always win.
    source: [...(defaultSchema.attributes?.source ?? []), 'media', 'type', 'width', 'height'],
  },
};
