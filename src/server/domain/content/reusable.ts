import { expandIncludes, includedNames, INCLUDE_DEPTH_MAX } from '../../../shared/gitbook-blocks.js';
import { blocksToMarkdown } from './blocks.js';
import { slugify } from './edit.js';
import type { Block } from './blocks.js';
import type { PageVersion, ReusableContent } from './model.js';

/** Where included contents are read from: a revision (RevisionReader), or one being written (the search index). */
export interface IncludeSource {
  reusableContents(): Promise<ReusableContent[]>;
  document(version: PageVersion): Promise<Block[]>;
}

/**
 * The finder of a revision's reusable contents by the name an `{% include %}` gives (shared/gitbook-blocks.ts
 * includeName): an id, a slug (the first content of that slug), or a name whose slug is one.
 */
export function contentFinder<T>(
  contents: Iterable<ReusableContent>,
  value: (content: ReusableContent) => T,
): (name: string) => T | undefined {
  const byName = new Map<string, T>();
  for (const c of contents) {
    byName.set(c.id, value(c));
    if (!byName.has(c.version.slug)) byName.set(c.version.slug, value(c));
  }
  return (name) => byName.get(name) ?? byName.get(slugify(name));
}

/**
 * A page's markdown with the reusable contents it includes (`{% include %}`) in place, as readers see it (the
 * published page, the PDF export): only the contents named are read, level by level (INCLUDE_DEPTH_MAX). A name is
 * a content's slug (what GitBook's export paths end in) or its id.
 */
export async function withIncludes(reader: IncludeSource, markdown: string): Promise<string> {
  return (await expandWithIncludes(reader, markdown)).markdown;
}

/**
 * withIncludes, and every name looked for on the way (found or not, nested ones too, each once): what a change of
 * reusable content must be checked against to know whether this markdown reads differently.
 */
export async function expandWithIncludes(
  reader: IncludeSource,
  markdown: string,
): Promise<{ markdown: string; names: string[] }> {
  let wanted = includedNames(markdown);
  if (!wanted.length) return { markdown, names: [] };
  const names = new Set<string>(wanted);
  const find = contentFinder(await reader.reusableContents(), (r) => r);
  const bodies = new Map<string, string>();
  for (let depth = 0; depth < INCLUDE_DEPTH_MAX && wanted.length; depth++) {
    const next: string[] = [];
    for (const name of wanted) {
      const found = find(name);
      if (bodies.has(name) || !found) continue;
      const body = blocksToMarkdown(await reader.document(found.version));
      bodies.set(name, body);
      next.push(...includedNames(body));
    }
    for (const name of next) names.add(name);
    wanted = next;
  }
  return { markdown: expandIncludes(markdown, (name) => bodies.get(name)), names: [...names] };
}
