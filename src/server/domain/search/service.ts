import type { Expression } from 'kysely';
import type { ServiceContext } from '../context.js';
import type { Executor } from '../../storage/db.js';
import { searchDialect, type PageTexts } from '../../storage/dialects/search.js';
import { decodeCursor, encodeCursor } from '../../storage/pagination.js';
import { spaceIdsQuery, type SpaceRow } from '../../storage/repos/spaces.js';
import { getObjects } from '../../storage/repos/objects.js';
import * as sitesRepo from '../../storage/repos/sites.js';
import type { SiteSpaceRow } from '../../storage/repos/sites.js';
import type { SiteSearchBody, SiteSearchScope, TextRange } from '../../../shared/contract/search.js';
import { RevisionReader, type PageEntry, type PageVersion } from '../content/model.js';
import { loadSpace, readableSpaces } from '../spaces/service.js';
import { canSeeSiteSpace, loadSite, orgLevels } from '../sites/access.js';
import { defaultSiteSpace, orderedSections, readStructure, siteSpacesIn, type Structure } from '../sites/model.js';
import type { SiteRow, SectionRow } from '../../storage/repos/sites.js';
import { InvalidError } from '../errors.js';
import { isEmptyQuery, parseQuery } from './query.js';
import { excerpt, splitSections } from './excerpt.js';
import { highlightPage, type Stems } from './highlight.js';
import type { ParsedQuery } from './query.js';
import { TimeSlices } from '../../lib/yield.js';
import { SECTION_SEPARATOR } from './extract.js';
import { siteReach } from '../sites/published/site-reach.js';
import type { SiteTokenScope } from '../sites/published/site-token.js';

/**
 * Full-text search over the search index (indexer.ts): the pages of a set of spaces that match a query, best
 * first, each with its matching sections and excerpts. The set of spaces is always a subquery the database joins
 * with its matches, so permissions are applied in the same query, never page by page.
 *
 * Results are ranked, so they are paged by offset: `next.page` encodes the position of the next page. Ranking needs
 * every match anyway (and so does `count`); a page deep in the results costs what the first costs plus the rows it
 * skips. Pages may shift when content changes between two calls.
 */
export interface SectionHit {
  /** Heading anchor; empty for the text before the first heading. */
  anchor: string;
  heading: string;
  headingMarks: TextRange[];
  body: string;
  bodyMarks: TextRange[];
}

export interface PageHit {
  spaceId: string;
  pageId: string;
  title: string;
  titleMarks: TextRange[];
  /** The page's path in its space's current revision. */
  path: string;
  sections: SectionHit[];
}

export interface SearchHits {
  hits: PageHit[];
  /** Pages that match. */
  count: number;
  next?: { page: string };
  /** The spaces of the hits (current revision, title, organization). */
  spaces: Map<string, SpaceRow>;
}

/** Sections listed per page at most (those with the most matches). */
export const SECTIONS_MAX = 5;
/** Results a search can page through at most. */
export const SEARCH_OFFSET_MAX = 10_000;

function decodeOffset(page: string | undefined): number {
  const key = decodeCursor(page, 1);
  if (!key) return 0;
  const offset = Number(key[0]);
  if (!Number.isInteger(offset) || offset < 0 || offset > SEARCH_OFFSET_MAX) {
    throw new InvalidError('page', 'is not a page cursor returned by this search (pass back next.page)');
  }
  return offset;
}

/** The title's highlights and the matching sections of a page (its highlights bounded: see highlight.ts). */
async function highlighted(row: PageTexts, query: ParsedQuery, stems: Stems) {
  const [titleMarks, headingMarks, bodyMarks] = await highlightPage([row.title, row.headings, row.body], query, stems);
  return { titleMarks: titleMarks!, sections: sectionsOf(row, headingMarks!, bodyMarks!) };
}

function sectionsOf(row: PageTexts, headingMarks: TextRange[], bodyMarks: TextRange[]): SectionHit[] {
  const headings = splitSections(row.headings, headingMarks);
  const bodies = splitSections(row.body, bodyMarks);
  const matching = row.anchors.split(SECTION_SEPARATOR).flatMap((anchor, i) => {
    const heading = headings[i] ?? { text: '', ranges: [] };
    const body = bodies[i] ?? { text: '', ranges: [] };
    return heading.ranges.length || body.ranges.length ? [{ i, anchor, heading, body }] : [];
  });
  // Heading matches first, then the most matches, then the page's order.
  matching.sort(
    (a, b) =>
      Number(b.heading.ranges.length > 0) - Number(a.heading.ranges.length > 0) ||
      b.body.ranges.length - a.body.ranges.length ||
      a.i - b.i,
  );
  return matching.slice(0, SECTIONS_MAX).map(({ anchor, heading, body }) => {
    const cut = excerpt(body.text, body.ranges);
    return { anchor, heading: heading.text, headingMarks: heading.ranges, body: cut.text, bodyMarks: cut.ranges };
  });
}

/**
 * The paths of pages in a revision (as RevisionReader.path gives them), reading the versions of the pages and their
 * ancestors in one query; pages not in the revision are left out.
 */
async function pagePaths(
  reader: RevisionReader,
  pageIds: string[],
  /** Leave out pages whose version says `noIndex` (a published site's search). */
  skipNoIndex = false,
): Promise<Map<string, string>> {
  const entries = new Map<string, PageEntry>();
  for (const id of pageIds) {
    let current: string | null = id;
    for (let depth = 0; current && !entries.has(current) && depth < 100; depth++) {
      const entry: PageEntry | undefined = await reader.entry(current);
      if (!entry) break;
      entries.set(current, entry);
      current = entry.p;
    }
  }
  const versions = await getObjects<PageVersion>(
    reader.db,
    [...entries.values()].map((e) => e.v),
  );
  const out = new Map<string, string>();
  for (const id of pageIds) {
    if (!entries.has(id)) continue;
    if (skipNoIndex && versions.get(entries.get(id)!.v)?.noIndex) continue;
    const slugs: string[] = [];
    let current: string | null = id;
    for (let depth = 0; current && depth < 100; depth++) {
      const entry = entries.get(current);
      if (!entry) break;
      const version = versions.get(entry.v);
      // Groups are sections of the navigation: they give no segment to their pages' paths.
      if (version && version.type !== 'group') slugs.unshift(version.slug);
      current = entry.p;
    }
    out.set(id, slugs.join('/'));
  }
  return out;
}

/** The pages of the spaces `spaceIds` (a subquery) that match `text`, at the position `page` encodes. */
export async function searchPages(
  db: Executor,
  spaceIds: Expression<unknown>,
  text: string,
  page: string | undefined,
  limit: number,
  /** A published site's search: pages that ask to be left out of it (`noIndex`) are. */
  options: { published?: boolean } = {},
): Promise<SearchHits> {
  const offset = decodeOffset(page);
  const query = parseQuery(text);
  if (isEmptyQuery(query)) return { hits: [], count: 0, spaces: new Map() };
  const dialect = searchDialect(db);
  const ranked = await dialect.rank(db, query, spaceIds, offset, limit);
  const stems = await dialect.stemmer(db);
  const spaceRows = await sitesRepo.spacesByIds(db, [...new Set(ranked.pages.map((p) => p.spaceId))]);
  const spaces = new Map(spaceRows.map((s) => [s.id, s]));
  // Paths are read from each space's current revision (a page that moved keeps its row), in few queries.
  const revisions = spaceRows.length
    ? await db
        .selectFrom('revisions')
        .selectAll()
        .where(
          'id',
          'in',
          spaceRows.map((s) => s.revision_id),
        )
        .execute()
    : [];
  const paths = new Map<string, Map<string, string>>();
  for (const revision of revisions) {
    const ids = ranked.pages.filter((p) => p.spaceId === revision.space_id).map((p) => p.pageId);
    paths.set(revision.space_id, await pagePaths(new RevisionReader(db, revision), ids, options.published));
  }
  // The pages' texts are read and highlighted a few at a time (up to 500,000 characters each: reading twenty at
  // once held the event loop for 300 ms), with other requests served in between once a slice of time is spent
  // (not after every batch: under load each yield waits a whole turn of the event loop, and a search of small
  // pages paid ten of them).
  const hits: PageHit[] = [];
  // Pages a published site's search leaves out (`noIndex`) are not counted either (on the pages read here).
  let left = 0;
  const slices = new TimeSlices();
  for (let i = 0; i < ranked.pages.length; i += dialect.textsAtOnce) {
    if (i > 0) await slices.due();
    const batch = ranked.pages.slice(i, i + dialect.textsAtOnce);
    const rows = new Map((await dialect.texts(db, batch)).map((r) => [`${r.spaceId}/${r.pageId}`, r]));
    for (const { spaceId, pageId } of batch) {
      const row = rows.get(`${spaceId}/${pageId}`);
      const path = paths.get(spaceId)?.get(pageId);
      // A page deleted between the two queries is left out.
      if (!row || path === undefined) {
        if (row && options.published) left++;
        continue;
      }
      hits.push({ spaceId, pageId, title: row.title, path, ...(await highlighted(row, query, stems)) });
    }
  }
  const end = offset + limit;
  return {
    hits,
    count: ranked.total - left,
    next: end < ranked.total && end <= SEARCH_OFFSET_MAX ? { page: encodeCursor([String(end)]) } : undefined,
    spaces,
  };
}

/** Space ids, as a subquery of live spaces. */
export function liveSpaces(db: Executor, ids: string[]) {
  const list = ids.length ? ids : [''];
  return db.selectFrom('spaces').select('spaces.id').where('id', 'in', list).where('deleted_at', 'is', null);
}

/** `GET /v1/spaces/{spaceId}/search`: needs the read level on the space. */
export async function searchSpace(
  ctx: ServiceContext,
  spaceId: string,
  text: string,
  page: string | undefined,
  limit: number,
) {
  const { row } = await loadSpace(ctx.db, ctx, spaceId, 'view', 'search it');
  return { space: row, ...(await searchPages(ctx.db, liveSpaces(ctx.db, [spaceId]), text, page, limit)) };
}

/** `GET /v1/orgs/{organizationId}/search`: every live space of the organization the caller may read. */
export async function searchOrganization(
  ctx: ServiceContext,
  organizationId: string,
  text: string,
  page: string | undefined,
  limit: number,
) {
  const { filter } = await readableSpaces(ctx, organizationId, { deleted: false });
  return searchPages(ctx.db, spaceIdsQuery(ctx.db, filter), text, page, limit);
}

/** The scope of a site search from the body (the deprecated `mode` forms included); every site space by default. */
export function siteSearchScope(body: Pick<SiteSearchBody, 'scope' | 'mode' | 'siteSpaceIds' | 'siteSpaceId'>) {
  if (body.scope) return body.scope;
  if (body.siteSpaceIds) return { mode: 'specific', siteSpaceIds: body.siteSpaceIds } satisfies SiteSearchScope;
  if (body.mode === 'current') {
    if (!body.siteSpaceId) throw new InvalidError('siteSpaceId', 'is required with mode current');
    return { mode: 'default', currentSiteSpace: body.siteSpaceId } satisfies SiteSearchScope;
  }
  if (body.mode === 'specific') throw new InvalidError('siteSpaceIds', 'is required with mode specific');
  return { mode: 'all' } satisfies SiteSearchScope;
}

/**
 * The site spaces a site search covers: among `visible` (the site spaces of `sections`, or of the root, that the
 * caller or visitor sees), those the scope names. `default`: the default of each section (the first visible one
 * when the default is hidden), plus `currentSiteSpace` and `includedSiteSpaces`. Site spaces that are not visible
 * are ignored, as if they did not exist.
 */
export function scopedSiteSpaces(
  site: SiteRow,
  structure: Structure,
  sections: SectionRow[] | null,
  visible: (ss: SiteSpaceRow) => boolean,
  scope: SiteSearchScope,
): SiteSpaceRow[] {
  const parents = sections === null ? [null] : sections;
  const byParent = parents.map((section) => ({
    section,
    siteSpaces: siteSpacesIn(structure, section?.id ?? null).filter(visible),
  }));
  const all = byParent.flatMap((p) => p.siteSpaces);
  if (scope.mode === 'all') return all;
  if (scope.mode === 'specific') return all.filter((ss) => scope.siteSpaceIds.includes(ss.id));
  const wanted = new Set([scope.currentSiteSpace, ...(scope.includedSiteSpaces ?? [])].filter(Boolean));
  const defaults = new Set(
    byParent.flatMap((p) => {
      const d = defaultSiteSpace(site, structure, p.section, p.siteSpaces);
      return d ? [d.id] : [];
    }),
  );
  return all.filter((ss) => defaults.has(ss.id) || wanted.has(ss.id));
}

/**
 * `POST /v1/orgs/{organizationId}/sites/{siteId}/search` (members with the read role or higher, as for every site
 * endpoint): the site spaces the caller sees on the site (those whose space they may read, as GET …/site-spaces
 * lists them), narrowed by the scope. Members see site spaces whatever their conditions; what a visitor of the
 * published site finds is siteSearch's (sites/published/search-page.ts).
 */
export async function searchSite(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  body: SiteSearchBody,
  page: string | undefined,
  limit: number,
) {
  const scope = siteSearchScope(body);
  const { site, access } = await loadSite(ctx.db, ctx, organizationId, siteId, 'view', 'search it');
  const structure = await readStructure(ctx.db, site.id);
  const [spaceRows, levels] = await Promise.all([
    sitesRepo.spacesByIds(ctx.db, [...new Set(structure.siteSpaces.map((s) => s.space_id))]),
    orgLevels(ctx.db, ctx, access),
  ]);
  const byId = new Map(spaceRows.map((s) => [s.id, s]));
  const sections = structure.sections.length ? orderedSections(structure) : null;
  const covered = scopedSiteSpaces(
    site,
    structure,
    sections,
    (ss) => canSeeSiteSpace(levels, byId.get(ss.space_id)),
    scope,
  );
  const spaceIds = [...new Set(covered.map((ss) => ss.space_id))];
  // A site's search: its pages as published, without those left out of it.
  return searchPages(ctx.db, liveSpaces(ctx.db, spaceIds), body.query, page, limit, { published: true });
}

/**
 * The same search for a site API token's caller (a renderer of the published site): the site spaces its visitor
 * sees on the published site (site-reach.ts), among the token's spaces, narrowed by the scope.
 */
export async function searchPublishedSite(
  db: Executor,
  token: SiteTokenScope,
  body: SiteSearchBody,
  page: string | undefined,
  limit: number,
) {
  const scope = siteSearchScope(body);
  const reach = await siteReach(db, token);
  const covered = scopedSiteSpaces(
    reach.site,
    reach.structure,
    reach.structure.sections.length ? reach.visible.sections : null,
    (ss) => reach.shown.has(ss.id) && token.spaceIds.includes(ss.space_id),
    scope,
  );
  const spaceIds = [...new Set(covered.map((ss) => ss.space_id))];
  return searchPages(db, liveSpaces(db, spaceIds), body.query, page, limit, { published: true });
}
