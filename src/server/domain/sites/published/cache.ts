import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Db } from '../../../storage/db.js';
import * as repo from '../../../storage/repos/sites.js';
import type { SiteRow, SiteSpaceRow } from '../../../storage/repos/sites.js';
import { findRevision } from '../../../storage/repos/spaces.js';
import { RevisionReader, type FileEntry, type PageNode, type TreeBase, type TreeEntries } from '../../content/model.js';
import { LruCache } from '../../../lib/lru-cache.js';
import { TimeSlices } from '../../../lib/yield.js';
import { ServiceUnavailableError } from '../../errors.js';
import { currentDeps, sameDeps, type OperationDeps } from '../../openapi/operations.js';
import type { Customization } from '../../../../shared/contract/customization.js';
import { siteCustomization, siteSpaceCustomization } from '../customization.js';
import { type Structure, readStructure } from '../model.js';
import { NavBuilder, WHOLE_TREE_MAX, type NavIndex } from './navigation.js';
import { BranchIndex, BranchTooLarge } from './branch.js';
import type { PageDeps } from './page.js';

/**
 * What published sites keep between requests, each under keys made of immutable inputs (see dispatch.ts): a site's
 * structure by (site, version), its customization parsed by (site, version, site space), a space's page index by
 * revision id, and each rendered page, with its ETag and compressed copies, by all that it shows.
 */

export interface RenderedPage {
  html: string;
  etag: string;
  /** Compressed copies, made on first demand (on libuv's threads) and kept while the page is. */
  encoded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
  /** The OpenAPI spec versions its blocks show: the page is rendered again once one of them has a newer one. */
  openapi?: OperationDeps;
  /** When its integration blocks' renders stop being fresh: the page is rendered again after. */
  expires?: number;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** A rendered page compressed: brotli at quality 9 (done once per rendering, read by every visitor), gzip at 6. */
export function encodePage(page: RenderedPage, coding: 'br' | 'gzip'): Promise<Buffer> {
  let done = page.encoded[coding];
  if (!done) {
    done =
      coding === 'br'
        ? brotli(page.html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } })
        : gzip(page.html, { level: 6 });
    // A failure is not kept: the next visitor tries again.
    done.catch(() => delete page.encoded[coding]);
    page.encoded[coding] = done;
  }
  return done;
}

/**
 * What a page is served from: a space's pages at one revision, as a tree with what navigation looks up (by id,
 * parents, reading order), by path (documents), its first page, and its files. The whole index (SpaceIndex), or a
 * page's branch of it (BranchIndex, branch.ts).
 */
export interface PageIndex extends NavIndex {
  revisionId: string;
  byPath: Map<string, PageNode>;
  first?: PageNode;
  files: Map<string, FileEntry>;
  fileByName: Map<string, string>;
  /** A partial index reads the pages that `refs` (link targets: ids or paths) name; the whole index has them all. */
  prepare?(refs: Iterable<string>): Promise<void>;
}

/** A space's whole page index at one revision. */
export interface SpaceIndex extends PageIndex {
  /** The page entries the tree was made from: the index of the space's next revision starts from them. */
  entries: TreeEntries;
}

/** The page at `path` ('' for the first page) in an index, whole or partial. */
export function pageAt(index: PageIndex, path: string): Promise<PageNode | undefined> | PageNode | undefined {
  if (index instanceof BranchIndex) return index.find(path);
  return path === '' ? index.first : index.byPath.get(path);
}

/**
 * What the index of another revision of the same space gives a new one (see RevisionReader.walkTree): its entries
 * and the versions of its pages, so that a change to a 100,000-page space reads what changed, not the whole tree.
 */
function treeBase(index: SpaceIndex): TreeBase {
  return {
    entries: index.entries,
    version: (pageId, hash) => {
      const node = index.byId.get(pageId);
      return node?.entry.v === hash ? node.version : undefined;
    },
  };
}

/** A cache key made of `parts` (a rendered page's: all that it shows). */
export function hashKey(parts: unknown[]): string {
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/**
 * How long reading an index holds the event loop at a time. Visitors are served meanwhile (from branches, see
 * pageIndex): a visitor's page waits for a slice at each of its own reads, so the slices are short.
 */
const INDEX_SLICE_MS = 2;

/** Pages and files the page indexes of all spaces hold at most. */
const INDEXED_MAX = 250_000;

/**
 * Spaces with more pages than this are served from a page's branch while their whole index is read (see
 * SiteCache.pageIndex); smaller ones wait for it (2,000 pages' index reads in about 30 ms).
 */
export const BRANCH_MIN = 2000;

/** How long a page whose rendering was stopped answers 503 without trying again (its content has not changed). */
const FAILED_RETRY_MS = 60_000;

/** The caches of a PublishedSites, each bounded (least recently used out first). */
export class SiteCache {
  private readonly structures = new LruCache<Structure>(1000);
  /** Customization settings parsed, by site version and site space (the version goes up with any change to them). */
  private readonly settings = new LruCache<Customization>(1000);
  /** Page indexes, bounded by pages and files held (a 100,000-page space's index is tens of megabytes). */
  private readonly indexes = new LruCache<SpaceIndex>(64, INDEXED_MAX, (i) => i.entries.all.size + i.files.size);
  /**
   * Rendered pages, bounded by size (characters of HTML), with the ETag of their bytes (computed once, when
   * rendered).
   */
  private readonly pages = new LruCache<RenderedPage>(20_000, 64 * 1024 * 1024, (p) => p.html.length);
  /** Pages whose rendering was stopped (time limit), by key, with when: not tried again for a minute. */
  private readonly failed = new LruCache<number>(1000);

  /** Pages a space has beyond which a page is served from its branch while the whole index is read. */
  private readonly branchMin: number;

  /**
   * `branchMin` (BRANCH_MIN unless said otherwise; tests set it lower) is never below the spaces whose whole tree a
   * page shows (navigation.ts WHOLE_TREE_MAX): a branch cannot show a whole tree.
   */
  constructor(
    private readonly db: Db,
    branchMin = BRANCH_MIN,
  ) {
    this.branchMin = Math.max(branchMin, WHOLE_TREE_MAX + 1);
  }

  /** The site's structure at `version`, read once per version. */
  async structure(site: SiteRow): Promise<Structure> {
    const key = `${site.id}:${site.version}`;
    const hit = this.structures.get(key);
    if (hit) return hit;
    const structure = await readStructure(this.db, site.id);
    // Cache it only when no write came in between: then it is exactly the structure of `version`.
    const again = await repo.findSiteById(this.db, site.id);
    if (again?.version === site.version) this.structures.set(key, structure);
    return structure;
  }

  /** Indexes being read: visitors arriving meanwhile wait for the same one (a large one takes seconds to read). */
  private readonly reading = new Map<string, Promise<SpaceIndex | undefined>>();

  async index(revisionId: string): Promise<SpaceIndex | undefined> {
    const hit = this.indexes.get(revisionId);
    if (hit) return hit;
    let reading = this.reading.get(revisionId);
    if (!reading) {
      reading = this.readIndex(revisionId).finally(() => this.reading.delete(revisionId));
      this.reading.set(revisionId, reading);
    }
    return reading;
  }

  /**
   * The index to serve a page of a revision from: its whole index when it is ready, or when the space is small
   * enough to wait for it. A larger space's whole index takes up to seconds to read (1.3 s at 100,000 pages): its
   * reading is started, and meanwhile the page is served from its branch (branch.ts), read in milliseconds. Undefined
   * when there is no such revision.
   */
  async pageIndex(revisionId: string): Promise<PageIndex | undefined> {
    const hit = this.indexes.get(revisionId);
    if (hit) return hit;
    const whole = this.index(revisionId);
    const revision = await findRevision(this.db, revisionId);
    if (!revision) return whole;
    const reader = new RevisionReader(this.db, revision);
    // The trie counts its entries (the top level's list is one): read from its root node.
    if ((await reader.trie.size(revision.pages_root)) <= this.branchMin + 1) return whole;
    // Read on for the next visitors; a failure is theirs to see.
    whole.catch(() => undefined);
    try {
      return await BranchIndex.open(reader);
    } catch (err) {
      // A top level too large to read quickly: wait for the whole index.
      if (err instanceof BranchTooLarge) return whole;
      throw err;
    }
  }

  /** The revision last indexed of each space (bounded like the indexes): the next one starts from its index. */
  private readonly latest = new LruCache<string>(1000);

  private async readIndex(revisionId: string): Promise<SpaceIndex | undefined> {
    const revision = await findRevision(this.db, revisionId);
    if (!revision) return undefined;
    const reader = new RevisionReader(this.db, revision);
    const previousId = this.latest.get(revision.space_id);
    // Peeked, not used: the previous index is no longer served once this one is read, so it ages out as it was.
    const previous = previousId === undefined ? undefined : this.indexes.peek(previousId);
    // The tree, its navigation index and its documents by path, made in one walk (each page, then its subpages).
    const builder = new NavBuilder();
    const byPath = new Map<string, PageNode>();
    const [{ roots, entries }, files] = await Promise.all([
      reader.treeWithEntries(
        previous && treeBase(previous),
        (node, parent) => {
          builder.add(node, parent);
          if (node.version.type === 'document' && !byPath.has(node.path)) byPath.set(node.path, node);
        },
        new TimeSlices(INDEX_SLICE_MS),
      ),
      reader.files(),
    ]);
    builder.index.tree = roots;
    const nav = builder.index;
    const index: SpaceIndex = {
      ...nav,
      revisionId,
      entries,
      byPath,
      first: nav.documents[0],
      files: new Map(files),
      fileByName: new Map(files.map(([id, f]) => [f.name, id])),
    };
    this.indexes.set(revisionId, index);
    this.latest.set(revision.space_id, revisionId);
    return index;
  }

  /** A site's customization, or a site space's (the site's with its overrides), parsed once per site version. */
  settingsOf(site: SiteRow, siteSpace?: SiteSpaceRow): Customization {
    const key = `${site.id}:${site.version}:${siteSpace?.id ?? ''}`;
    let settings = this.settings.get(key);
    if (!settings) {
      settings = siteSpace ? siteSpaceCustomization(site, siteSpace).settings : siteCustomization(site);
      this.settings.set(key, settings);
    }
    return settings;
  }

  /**
   * The page rendered under `key` (a digest of all that it shows), rendered by `render` when it is not kept yet, or
   * was rendered with an OpenAPI spec version that has a newer one since. Undefined when its rendering was stopped
   * (time limit), now or less than FAILED_RETRY_MS ago: the caller answers that it is taking too long.
   */
  async renderedPage(
    key: string,
    organizationId: string,
    render: (out: PageDeps) => Promise<string>,
  ): Promise<RenderedPage | undefined> {
    let rendered = this.pages.get(key);
    if (rendered?.expires !== undefined && rendered.expires <= Date.now()) rendered = undefined;
    if (rendered?.openapi) {
      const now = await currentDeps(this.db, organizationId, Object.keys(rendered.openapi));
      if (!sameDeps(now, rendered.openapi)) rendered = undefined;
    }
    if (rendered === undefined && Date.now() - (this.failed.get(key) ?? 0) < FAILED_RETRY_MS) return undefined;
    if (rendered === undefined) {
      let html: string;
      const out: PageDeps = {};
      try {
        html = await render(out);
      } catch (err) {
        // A page body too big to render in time: this page only, as a page saying so (the site works on).
        if (!(err instanceof ServiceUnavailableError)) throw err;
        this.failed.set(key, Date.now());
        return undefined;
      }
      rendered = {
        html,
        etag: `"${crypto.createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`,
        encoded: {},
        ...(out.openapi ? { openapi: out.openapi } : {}),
        ...(out.expires !== undefined ? { expires: out.expires } : {}),
      };
      this.pages.set(key, rendered);
    }
    return rendered;
  }
}
