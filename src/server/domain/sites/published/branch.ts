import { getObjects } from '../../../storage/repos/objects.js';
import {
  TREE_DEPTH_MAX,
  type FileEntry,
  type PageEntry,
  type PageNode,
  type PageVersion,
  type RevisionReader,
} from '../../content/model.js';
import type { PageIndex } from './cache.js';

/**
 * A page of a large space served before the space's whole index is read (cache.ts reads it meanwhile, which takes
 * over a second at 100,000 pages): a partial index holding the page's branch, read from the revision's trie level by
 * level. It reads the levels on the way to the page (each level whole, with the groups in it, whose pages are on
 * that level), the page's neighbours in reading order, and the pages its links and the site's links name; every
 * other node is known by its entry only, and its pages are counted from it (`expanded` tells which were read).
 *
 * What it answers is what the whole index answers (the same page for a path, the same neighbours, the same targets
 * of links), so the page rendered from it is the very page the whole index renders, and is cached as such. A branch
 * that would read more than BRANCH_READ_MAX pages (a level of 50,000 siblings, long runs of pages that are not
 * documents) gives up with BranchTooLarge: the page then waits for the whole index.
 */

/** Pages a branch reads at most before it leaves the page to the whole index. */
const BRANCH_READ_MAX = 20_000;

export class BranchTooLarge extends Error {
  constructor() {
    super('This page needs the whole index of its space');
  }
}

export class BranchIndex implements PageIndex {
  tree: PageNode[] = [];
  readonly byId = new Map<string, PageNode>();
  readonly parentOf = new Map<string, PageNode>();
  /** The page shown and its neighbours in reading order (see `find`): all that pagination asks for. */
  documents: PageNode[] = [];
  readonly position = new Map<string, number>();
  readonly byPath = new Map<string, PageNode>();
  first?: PageNode;
  readonly expanded = new Set<string>();
  /** Pages read so far (see BRANCH_READ_MAX). */
  private read = 0;
  /** Depth of each node read (the whole index leaves out pages deeper than TREE_DEPTH_MAX). */
  private readonly depthOf = new Map<PageNode, number>();
  /** Names that link resolution asked for and found to be no page. */
  private readonly unknown = new Set<string>();

  private constructor(
    private readonly reader: RevisionReader,
    /** The top level's page ids, as the revision lists them. */
    private readonly rootIds: ReadonlySet<string>,
    readonly files: Map<string, FileEntry>,
    readonly fileByName: Map<string, string>,
  ) {}

  get revisionId(): string {
    return this.reader.revision.id;
  }

  /** The top level of the revision's tree read (and its groups), with its files. */
  static async open(reader: RevisionReader): Promise<BranchIndex> {
    const [rootIds, files] = await Promise.all([reader.rootIds(), reader.files()]);
    const index = new BranchIndex(
      reader,
      new Set(rootIds),
      new Map(files),
      new Map(files.map(([id, f]) => [f.name, id])),
    );
    index.tree = await index.nodes(rootIds, undefined, 0);
    return index;
  }

  /**
   * The page at `path` ('' for the first page), as the whole index's `byPath` and `first` have it, with its
   * neighbours in reading order read for pagination. Undefined when there is none.
   */
  async find(path: string): Promise<PageNode | undefined> {
    const node = path === '' ? await this.firstDocument(this.tree) : await this.atPath(path);
    if (path === '') this.first = node;
    if (node && this.isHidden(node)) {
      // Not in the reading order: no previous or next page (as the whole index has it).
      this.documents = [];
    } else if (node) {
      const around = [await this.previous(node), node, await this.next(node)].filter((n) => n !== undefined);
      this.documents = around;
      around.forEach((n, i) => this.position.set(n.id, i));
    }
    return node;
  }

  /**
   * Reads the pages `refs` name (ids, or paths as page links give them), so that link resolution finds them in
   * `byId` or `byPath` as it would in the whole index: an id of a page in the tree, or the first document in reading
   * order at a path.
   */
  async prepare(refs: Iterable<string>): Promise<void> {
    const asked = [...new Set(refs)].filter((r) => !this.byId.has(r) && !this.byPath.has(r) && !this.unknown.has(r));
    if (asked.length === 0) return;
    this.count(asked.length);
    const entries = await this.reader.entries(asked);
    for (const ref of asked) {
      const entry = entries.get(ref);
      const node = entry && (await this.reachable(ref, entry));
      if (node) {
        this.byId.set(ref, node);
        continue;
      }
      const found = await this.atPath(ref);
      if (found) this.byPath.set(ref, found);
      else this.unknown.add(ref);
    }
  }

  /** A node for page `id` when it is in the tree (its ancestors lead to the top level), with its path. */
  private async reachable(id: string, entry: PageEntry): Promise<PageNode | undefined> {
    const chain: Array<{ id: string; entry: PageEntry }> = [{ id, entry }];
    for (let at = entry; at.p !== null;) {
      if (chain.length > TREE_DEPTH_MAX + 1) return undefined;
      const parentId: string = at.p;
      const parent = (await this.reader.entries([parentId])).get(parentId);
      if (!parent || !parent.c.includes(chain[0]!.id)) return undefined;
      chain.unshift({ id: parentId, entry: parent });
      at = parent;
    }
    if (!this.rootIds.has(chain[0]!.id)) return undefined;
    this.count(chain.length);
    const versions = await getObjects<PageVersion>(this.reader.db, [...new Set(chain.map((c) => c.entry.v))]);
    let path = '';
    let node: PageNode | undefined;
    for (const link of chain) {
      const version = versions.get(link.entry.v);
      if (!version) return undefined;
      path = pathUnder(path, version);
      node = { id: link.id, entry: link.entry, version, path, pages: [] };
    }
    return node;
  }

  /** The nodes of `ids` under `parent`, in order: those whose entry and version exist. Groups among them are read. */
  private async nodes(ids: string[], parent: PageNode | undefined, depth: number): Promise<PageNode[]> {
    if (depth > TREE_DEPTH_MAX || ids.length === 0) return [];
    this.count(ids.length);
    const entries = await this.reader.entries(ids);
    const versions = await getObjects<PageVersion>(this.reader.db, [...new Set([...entries.values()].map((e) => e.v))]);
    const out: PageNode[] = [];
    for (const id of ids) {
      const entry = entries.get(id);
      const version = entry && versions.get(entry.v);
      if (!entry || !version) continue;
      const node: PageNode = { id, entry, version, path: pathUnder(parent?.path ?? '', version), pages: [] };
      this.byId.set(id, node);
      if (parent) this.parentOf.set(id, parent);
      this.depthOf.set(node, depth);
      out.push(node);
    }
    // A group's pages are on its parent's level: read with it.
    for (const node of out) if (node.version.type === 'group') await this.pagesOf(node);
    return out;
  }

  /** The pages under `node`, read once. */
  private async pagesOf(node: PageNode): Promise<PageNode[]> {
    if (!this.expanded.has(node.id)) {
      this.expanded.add(node.id);
      node.pages = await this.nodes(node.entry.c, node, (this.depthOf.get(node) ?? 0) + 1);
    }
    return node.pages;
  }

  /** The first document in reading order whose path is `path` (the whole index's byPath). */
  private atPath(path: string): Promise<PageNode | undefined> {
    return this.findIn(this.tree, path.split('/'), 0);
  }

  private async findIn(nodes: PageNode[], segments: string[], at: number): Promise<PageNode | undefined> {
    for (const node of nodes) {
      // Groups give no segment to their pages' paths.
      if (node.version.type === 'group') {
        const found = await this.findIn(node.pages, segments, at);
        if (found) return found;
        continue;
      }
      if (node.version.slug !== segments[at]) continue;
      if (at === segments.length - 1) {
        if (node.version.type === 'document') return node;
        continue;
      }
      const found = await this.findIn(await this.pagesOf(node), segments, at + 1);
      if (found) return found;
    }
    return undefined;
  }

  /** The first document of `nodes` and their pages, in reading order (each page before its pages). */
  private async firstDocument(nodes: PageNode[]): Promise<PageNode | undefined> {
    for (const node of nodes) {
      // Hidden pages, and the pages under them, are not in the reading order.
      if (node.version.hidden) continue;
      if (node.version.type === 'document') return node;
      const inner = await this.firstDocument(await this.pagesOf(node));
      if (inner) return inner;
    }
    return undefined;
  }

  /** The last document of `nodes` and their pages, in reading order. */
  private async lastDocument(nodes: PageNode[]): Promise<PageNode | undefined> {
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i]!;
      if (node.version.hidden) continue;
      const inner = await this.lastDocument(await this.pagesOf(node));
      if (inner) return inner;
      if (node.version.type === 'document') return node;
    }
    return undefined;
  }

  /** The level `node` is on, and where. */
  private siblings(node: PageNode): { level: PageNode[]; at: number; parent?: PageNode } {
    const parent = this.parentOf.get(node.id);
    const level = parent ? parent.pages : this.tree;
    return { level, at: level.indexOf(node), ...(parent ? { parent } : {}) };
  }

  /** The document after `node` in reading order. */
  private async next(node: PageNode): Promise<PageNode | undefined> {
    const inside = await this.firstDocument(await this.pagesOf(node));
    if (inside) return inside;
    for (let current = node; ;) {
      const { level, at, parent } = this.siblings(current);
      const after = await this.firstDocument(level.slice(at + 1));
      if (after || !parent) return after;
      current = parent;
    }
  }

  /** The document before `node` in reading order. */
  private async previous(node: PageNode): Promise<PageNode | undefined> {
    for (let current = node; ;) {
      const { level, at, parent } = this.siblings(current);
      const before = await this.lastDocument(level.slice(0, at));
      if (before || !parent) return before;
      if (parent.version.type === 'document') return parent;
      current = parent;
    }
  }

  /** Whether `node` or a page above it is hidden. */
  private isHidden(node: PageNode): boolean {
    for (let at: PageNode | undefined = node; at; at = this.parentOf.get(at.id)) if (at.version.hidden) return true;
    return false;
  }

  private count(pages: number): void {
    this.read += pages;
    if (this.read > BRANCH_READ_MAX) throw new BranchTooLarge();
  }
}

/** A page's path under a parent's: groups give no segment. */
function pathUnder(parentPath: string, version: PageVersion): string {
  if (version.type === 'group') return parentPath;
  return parentPath ? `${parentPath}/${version.slug}` : version.slug;
}
