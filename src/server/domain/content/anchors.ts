import { headingAnchorsOfBlocks } from '../search/extract.js';
import type { Block } from './blocks.js';

/**
 * Old heading ids keep working. When an edit rewords a heading (or renumbers it: a heading of the same text added
 * before it), the id it had is kept as an alias of that heading, found by its block (block ids survive edits, see
 * parseBlocks): the published page gives the heading that id too, and the links report counts a link to it as
 * working. Aliases live in the page's version (PageVersion.anchors), so they go with the page through change
 * requests and merges; the stored markdown is left as the writer wrote it.
 *
 * An alias goes when its heading's block goes, or when a heading takes that id as its own; a page keeps the
 * ANCHOR_ALIASES_MAX latest.
 */
export const ANCHOR_ALIASES_MAX = 50;

const headingsKey = (blocks: readonly Block[]) =>
  blocks
    .filter((b) => b.type === 'heading')
    .map((b) => `${b.id}\n${b.markdown}`)
    .join('\n\n');

/** The aliases of a page whose blocks go from `previous` to `next`, from those it had (`kept`). */
export function nextAnchorAliases(
  previous: readonly Block[],
  next: readonly Block[],
  kept: Record<string, string> | undefined,
): Record<string, string> | undefined {
  const blocks = new Set(next.map((b) => b.id));
  let aliases = Object.entries(kept ?? {}).filter(([, block]) => blocks.has(block));
  if (headingsKey(previous) !== headingsKey(next)) {
    const before = headingAnchorsOfBlocks(previous);
    const after = headingAnchorsOfBlocks(next);
    for (const [block, id] of before) {
      const now = after.get(block);
      if (now !== undefined && now !== id) aliases = [...aliases.filter(([alias]) => alias !== id), [id, block]];
    }
    const current = new Set(after.values());
    aliases = aliases.filter(([alias]) => !current.has(alias));
  }
  aliases = aliases.slice(-ANCHOR_ALIASES_MAX);
  return aliases.length ? Object.fromEntries(aliases) : undefined;
}

/** The two aliases of two sides of a merge together (those of blocks the merged page still has). */
export function mergedAnchorAliases(
  ours: Record<string, string> | undefined,
  theirs: Record<string, string> | undefined,
  blocks: readonly Block[],
): Record<string, string> | undefined {
  if (!ours && !theirs) return undefined;
  const ids = new Set(blocks.map((b) => b.id));
  const all = Object.entries({ ...ours, ...theirs }).filter(([, block]) => ids.has(block));
  const current = new Set(headingAnchorsOfBlocks(blocks).values());
  const kept = all.filter(([alias]) => !current.has(alias)).slice(-ANCHOR_ALIASES_MAX);
  return kept.length ? Object.fromEntries(kept) : undefined;
}

/**
 * A rendered page body with each alias given to its heading: an empty element with the old id at the start of the
 * heading that has the block's id now (`anchorsOfBlocks`), unless the body has an element of that id already.
 */
export function withAnchorAliases(
  html: string,
  aliases: Record<string, string> | undefined,
  blocks: readonly Block[],
): string {
  if (!aliases) return html;
  const current = headingAnchorsOfBlocks(blocks);
  let out = html;
  for (const [alias, block] of Object.entries(aliases)) {
    const id = current.get(block);
    if (!id || out.includes(` id="${escapeAttribute(alias)}"`)) continue;
    const open = new RegExp(`<h[1-6] id="${escapeRegExp(escapeAttribute(id))}"[^>]*>`);
    out = out.replace(open, (tag) => `${tag}<span id="${escapeAttribute(alias)}"></span>`);
  }
  return out;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;').replace(/</g, '&#x3C;');
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
