import { layoutOverrides } from '../../../shared/contract/content.js';
import type { Executor } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { TimeSlices } from '../../lib/yield.js';
import { nowIso } from '../../lib/time.js';
import { jsonEqual, type Json } from './tree.js';
import { mergeBlocks, resolveBlock } from './merge.js';
import { mergedAnchorAliases } from './anchors.js';
import { markdownCost, splitBlocks, type Block, type SplitBlock } from './blocks.js';
import { workers } from '../../workers/pool.js';
import {
  PAGE_FLAGS,
  ROOT,
  REUSABLE,
  isPageKey,
  RevisionReader,
  RevisionWriter,
  type PageEntry,
  type PageVersion,
  type RevisionRow,
} from './model.js';

/**
 * Three-way merge of two revisions of a space, from their common base: `ours` is the space's current content,
 * `theirs` the change request's. Pages and files changed on one side only take that side; pages changed on
 * both merge field by field, their bodies block by block, their children as ordered lists. What cannot merge
 * becomes a conflict, never a silent choice: a block edited differently on both sides, a page or block deleted
 * on one side and edited on the other, a page field changed differently, a page moved to different parents, a
 * file changed differently. A conflict with a resolution takes it; without one, the result holds the space's
 * version, and the caller refuses to use it.
 */
export type ConflictKind = 'block' | 'page-deleted' | 'page-field' | 'page-moved' | 'file';

export type Resolution = { keep: 'space' | 'change-request' } | { markdown: string };

export interface Conflict {
  /** Stable for the same three revisions: `kind:page[:block|field]`. */
  id: string;
  kind: ConflictKind;
  pageId?: string;
  pageTitle?: string;
  blockId?: string;
  field?: string;
  fileId?: string;
  /** Texts (or values) of the base, of the space, and of the change request; null where absent (deleted). */
  base: string | null;
  space: string | null;
  changeRequest: string | null;
  resolution?: Resolution;
}

export interface MergeOutcome {
  writer: RevisionWriter;
  conflicts: Conflict[];
}

const FIELDS = ['title', 'slug', 'emoji', 'icon', 'description', 'href'] as const;

function same(a: unknown, b: unknown): boolean {
  return jsonEqual(a ?? null, b ?? null);
}

/** Ordered ids merged three-way (insertions kept, deletions applied, order as in mergeBlocks). */
function mergeIds(base: string[], ours: string[], theirs: string[]): string[] {
  const asBlocks = (ids: string[]) => ids.map((id) => ({ id, type: 'page', markdown: '' }));
  return mergeBlocks(asBlocks(base), asBlocks(ours), asBlocks(theirs)).blocks.map((b) => b.id);
}

/**
 * A parser for mergeRevisions with the markdown of `resolutions` parsed ahead in the worker pool, so that no big
 * resolution text parses on the event loop (or inside a transaction).
 */
export async function splitResolutions(resolutions: Map<string, Resolution>) {
  const split = new Map<string, SplitBlock[]>();
  for (const resolution of resolutions.values()) {
    if (!('markdown' in resolution) || split.has(resolution.markdown)) continue;
    split.set(
      resolution.markdown,
      await workers.run('splitBlocks', resolution.markdown, markdownCost(resolution.markdown)),
    );
  }
  return (markdown: string) => split.get(markdown) ?? splitBlocks(markdown);
}

export async function mergeRevisions(
  db: Executor,
  base: RevisionRow,
  ours: RevisionRow,
  theirs: RevisionRow,
  resolutions: Map<string, Resolution> = new Map(),
  /** Parses the markdown of resolutions (see splitResolutions, which parses them ahead in the worker pool). */
  split: (markdown: string) => SplitBlock[] = splitBlocks,
): Promise<MergeOutcome> {
  const rb = new RevisionReader(db, base);
  const ro = new RevisionReader(db, ours);
  const rt = new RevisionReader(db, theirs);
  const writer = new RevisionWriter(ro);
  const conflicts: Conflict[] = [];
  const now = nowIso();

  const conflict = (c: Omit<Conflict, 'resolution'>): Resolution | undefined => {
    const resolution = resolutions.get(c.id);
    conflicts.push({ ...c, ...(resolution ? { resolution } : {}) });
    return resolution;
  };
  const wantsTheirs = (r: Resolution | undefined) => r !== undefined && 'keep' in r && r.keep === 'change-request';
  const title = async (reader: RevisionReader, entry: PageEntry | undefined) =>
    entry ? (await reader.version(entry.v)).title : undefined;

  const [dOurs, dTheirs] = await Promise.all([
    rb.trie.diff(base.pages_root, ours.pages_root),
    rb.trie.diff(base.pages_root, theirs.pages_root),
  ]);
  const oursChanged = new Map(dOurs.map((d) => [d.key, d]));

  const slices = new TimeSlices();
  for (const change of dTheirs) {
    const pause = slices.pause();
    if (pause) await pause;
    const key = change.key;
    const b = change.before as PageEntry | undefined;
    const t = change.after as PageEntry | undefined;
    const mine = oursChanged.get(key);
    if (!mine) {
      // Changed on the change request's side only.
      writer.setEntry(key, (t ?? null) as PageEntry | null);
      continue;
    }
    const o = mine.after as PageEntry | undefined;
    if (same(o, t)) continue;

    if (key === ROOT || key === REUSABLE) {
      // The top-level pages, or the reusable contents: lists merged as a page's children are.
      const ids = (e: unknown) => (e as { c?: string[] } | undefined)?.c ?? [];
      const merged = mergeIds(ids(b), ids(o), ids(t));
      if (key === ROOT) await writer.setChildren(null, merged);
      else writer.setEntry(REUSABLE, merged.length ? ({ c: merged } as unknown as PageEntry) : null);
      continue;
    }

    if (!o || !t) {
      // Deleted on one side. A conflict only if the other side changed the page itself.
      const kept = (o ?? t)!;
      const edited = !b || kept.v !== b.v;
      if (!edited) {
        writer.setEntry(key, null);
        continue;
      }
      const resolution = conflict({
        id: `page-deleted:${key}`,
        kind: 'page-deleted',
        pageId: key,
        pageTitle: await title(o ? ro : rt, kept),
        base: b ? 'present' : null,
        space: o ? 'edited' : null,
        changeRequest: t ? 'edited' : null,
      });
      const keepTheirs = wantsTheirs(resolution);
      writer.setEntry(key, (keepTheirs ? (t ?? null) : (o ?? null)) as PageEntry | null);
      if (keepTheirs && t && !o) {
        // Brought back: its parent must list it again (re-homed below if the parent is gone).
        const siblings = await writer.children(t.p);
        if (!siblings.includes(key)) await writer.setChildren(t.p, [...siblings, key]);
      }
      continue;
    }

    // Both sides changed the page: merge parent, children and version.
    let parent = o.p;
    if (!same(o.p, t.p)) {
      if (b && same(o.p, b.p)) parent = t.p;
      else if (!b || !same(t.p, b.p)) {
        const resolution = conflict({
          id: `page-moved:${key}`,
          kind: 'page-moved',
          pageId: key,
          pageTitle: await title(ro, o),
          base: b?.p ?? null,
          space: o.p,
          changeRequest: t.p,
        });
        if (wantsTheirs(resolution)) parent = t.p;
      }
    }
    const children = mergeIds(b?.c ?? [], o.c, t.c);
    let version = o.v;
    if (o.v !== t.v) {
      if (b && o.v === b.v) version = t.v;
      else if (!b || t.v !== b.v) version = await mergeVersions(key, b, o, t);
    }
    writer.setEntry(key, { v: version, p: parent, c: children });
  }

  async function mergeVersions(pageId: string, b: PageEntry | undefined, o: PageEntry, t: PageEntry) {
    const vb = b ? await rb.version(b.v) : undefined;
    const vo = await ro.version(o.v);
    const vt = await rt.version(t.v);
    const merged: PageVersion = { ...vo, updatedAt: now };
    // A flag cannot conflict: the side that changed it from the base wins. So with each layout option (each has
    // two values).
    for (const flag of PAGE_FLAGS) {
      if (vo[flag] === vt[flag] || vo[flag] !== vb?.[flag]) continue;
      if (vt[flag]) merged[flag] = true;
      else delete merged[flag];
    }
    // The cover: one side's change is taken; two different changes are a conflict over the file each chose.
    if (!same(vo.cover, vt.cover) && !same(vt.cover, vb?.cover)) {
      if (same(vo.cover, vb?.cover)) {
        if (vt.cover) merged.cover = vt.cover;
        else delete merged.cover;
      } else {
        const resolution = conflict({
          id: `page-field:${pageId}:cover`,
          kind: 'page-field',
          pageId,
          pageTitle: vo.title,
          field: 'cover',
          base: vb?.cover?.file ?? null,
          space: vo.cover?.file ?? null,
          changeRequest: vt.cover?.file ?? null,
        });
        if (wantsTheirs(resolution)) {
          if (vt.cover) merged.cover = vt.cover;
          else delete merged.cover;
        }
      }
    }
    if (!same(vo.layout, vt.layout)) {
      const layout: Record<string, unknown> = { ...vo.layout };
      for (const key of new Set([...Object.keys(vo.layout ?? {}), ...Object.keys(vt.layout ?? {})])) {
        const [b, o, t] = [vb?.layout, vo.layout, vt.layout].map(
          (l) => (l as Record<string, unknown> | undefined)?.[key],
        );
        if (o !== t && o === b) {
          if (t === undefined) delete layout[key];
          else layout[key] = t;
        }
      }
      const overrides = layoutOverrides(layout);
      if (overrides) merged.layout = overrides;
      else delete merged.layout;
    }
    for (const field of FIELDS) {
      const [fb, fo, ft] = [vb?.[field], vo[field], vt[field]];
      if (same(fo, ft)) continue;
      if (same(fo, fb)) {
        if (ft === undefined) delete merged[field];
        else merged[field] = ft;
        continue;
      }
      if (same(ft, fb)) continue;
      const resolution = conflict({
        id: `page-field:${pageId}:${field}`,
        kind: 'page-field',
        pageId,
        pageTitle: vo.title,
        field,
        base: fb ?? null,
        space: fo ?? null,
        changeRequest: ft ?? null,
      });
      if (resolution && 'markdown' in resolution) merged[field] = resolution.markdown;
      else if (wantsTheirs(resolution)) {
        if (ft === undefined) delete merged[field];
        else merged[field] = ft;
      }
    }
    if (vo.document !== vt.document) {
      const [bb, bo, bt] = await Promise.all([
        vb ? rb.document(vb) : Promise.resolve<Block[]>([]),
        ro.document(vo),
        rt.document(vt),
      ]);
      const result = mergeBlocks(bb, bo, bt);
      let blocks = result.blocks;
      for (const c of result.conflicts) {
        const resolution = conflict({
          id: `block:${pageId}:${c.blockId}`,
          kind: 'block',
          pageId,
          pageTitle: vo.title,
          blockId: c.blockId,
          base: c.base,
          space: c.ours,
          changeRequest: c.theirs,
        });
        if (resolution) {
          const choice =
            'markdown' in resolution
              ? { markdown: resolution.markdown }
              : { keep: resolution.keep === 'space' ? ('ours' as const) : ('theirs' as const) };
          blocks = resolveBlock(blocks, c, choice, newId, split);
        }
      }
      if (blocks.length) merged.document = writer.addObject({ blocks });
      else delete merged.document;
      // Both sides' old heading ids (content/anchors.ts), of the headings the merged page still has.
      const anchors = mergedAnchorAliases(vo.anchors, vt.anchors, blocks);
      if (anchors) merged.anchors = anchors;
      else delete merged.anchors;
    } else if (vt.anchors !== vo.anchors && JSON.stringify(vt.anchors) !== JSON.stringify(vo.anchors)) {
      const anchors = mergedAnchorAliases(vo.anchors, vt.anchors, await ro.document(vo));
      if (anchors) merged.anchors = anchors;
      else delete merged.anchors;
    }
    return writer.addObject(merged);
  }

  // Files: one side's change applies; both changed differently is a conflict.
  const [fOurs, fTheirs] = await Promise.all([
    rb.trie.diff(base.files_root, ours.files_root),
    rb.trie.diff(base.files_root, theirs.files_root),
  ]);
  const filesOurs = new Map(fOurs.map((d) => [d.key, d]));
  for (const change of fTheirs) {
    const mine = filesOurs.get(change.key);
    if (!mine) {
      writer.setFile(change.key, (change.after ?? null) as never);
      continue;
    }
    if (same(mine.after, change.after)) continue;
    const name = (v: Json | undefined) => (v as { name?: string } | undefined)?.name ?? null;
    const resolution = conflict({
      id: `file:${change.key}`,
      kind: 'file',
      fileId: change.key,
      base: name(change.before),
      space: name(mine.after),
      changeRequest: name(change.after),
    });
    if (wantsTheirs(resolution)) writer.setFile(change.key, (change.after ?? null) as never);
  }

  // Only structural changes (pages added, removed or moved, lists reordered) can leave the tree to repair.
  const structural: string[] = [];
  for (const d of [dOurs, dTheirs].flat()) {
    const [b, a] = [d.before as unknown as PageEntry | undefined, d.after as unknown as PageEntry | undefined];
    // Reusable contents hang under their list, which merged as a list above.
    if (!isPageKey(d.key)) continue;
    if (d.key === ROOT || !b || !a || b.p !== a.p || !same(b.c, a.c)) structural.push(d.key);
    const pause = slices.pause();
    if (pause) await pause;
  }
  await repairTree(writer, structural, slices);
  return { writer, conflicts };
}

/**
 * After merging, every page of the touched ones must hang under an existing parent that lists it, and lists
 * name only existing pages. A page whose parent the other side deleted moves to the top level.
 *
 * Linear in the pages touched: the touched pages are indexed by parent once, so each parent's list is checked
 * against its own pages only (an import touches thousands of pages under as many parents), and only its touched
 * pages are read.
 */
async function repairTree(writer: RevisionWriter, touched: string[], slices: TimeSlices): Promise<void> {
  // 100,000 touched pages (an import) are checked in slices of the event loop: each loop below pauses once a
  // slice is spent.
  const step = async () => {
    const pause = slices.pause();
    if (pause) await pause;
  };
  const keys: string[] = [];
  for (const key of new Set(touched)) {
    if (key !== ROOT) keys.push(key);
    await step();
  }
  const entries = new Map<string, PageEntry | undefined>();
  for (const key of keys) {
    entries.set(key, await writer.entry(key));
    await step();
  }
  const parents = new Set<string | null>([null]);
  for (const key of keys) {
    const entry = entries.get(key);
    if (entry) {
      parents.add(entry.p);
      parents.add(key);
    }
    await step();
  }
  for (const key of keys) {
    const entry = entries.get(key);
    if (!entry || entry.p === null) continue;
    if (!(await writer.entry(entry.p))) {
      const moved = { ...entry, p: null };
      writer.setEntry(key, moved);
      entries.set(key, moved);
      parents.add(null);
    }
    await step();
  }
  // Touched pages by the parent they name, in touched order. Only lists (c) change below, never parents (p).
  const byParent = new Map<string | null, string[]>();
  for (const key of keys) {
    const entry = entries.get(key);
    if (!entry) continue;
    const list = byParent.get(entry.p);
    if (list) list.push(key);
    else byParent.set(entry.p, [key]);
    await step();
  }
  for (const parentId of parents) {
    if (parentId !== null && !(await writer.entry(parentId))) continue;
    const listed = await writer.children(parentId);
    const kept = new Set<string>();
    for (const id of listed) {
      if (kept.has(id)) continue;
      // A page neither side moved, added or removed has the same parent in the base and on both sides, so it is
      // where every list naming it puts it: only touched pages are checked (a parent of 10,000 pages read all of
      // them on every merge).
      const entry = entries.get(id);
      if (!entries.has(id) || (entry && entry.p === parentId)) kept.add(id);
      if (entries.has(id)) await step();
    }
    // Pages that name this parent but are missing from its list go at its end.
    for (const key of byParent.get(parentId) ?? []) kept.add(key);
    const list = [...kept];
    if (!same(list, listed)) await writer.setChildren(parentId, list);
    await step();
  }
}
