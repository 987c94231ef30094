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
  const byName = new Map<string, ReusableContent>();
  for (const r of await reader.reusableContents()) {
    byName.set(r.id, r);
    if (!byName.has(r.version.slug)) byName.set(r.version.slug, r);
  }
  const bodies = new Map<string, string>();
  for (let depth = 0; depth < INCLUDE_DEPTH_MAX && wanted.length; depth++) {
    const next: string[] = [];
    for (const name of wanted) {
      const found = byName.get(name) ?? byName.get(slugify(name));
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
