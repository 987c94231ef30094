import { sql } from 'kysely';
import { containsPattern } from '../like.js';
import type { Executor } from '../db.js';
import type {
  SitesTable,
  SiteSectionGroupsTable,
  SiteSectionsTable,
  SiteSpacesTable,
  SiteShareLinksTable,
  SiteRedirectsTable,
} from '../schema.js';

export type SiteRow = SitesTable;
export type SectionGroupRow = SiteSectionGroupsTable;
export type SectionRow = SiteSectionsTable;
export type SiteSpaceRow = SiteSpacesTable;
export type ShareLinkRow = SiteShareLinksTable;
export type SiteRedirectRow = SiteRedirectsTable;

// Sites

export async function insertSite(db: Executor, row: SiteRow): Promise<void> {
  await db.insertInto('sites').values(row).execute();
}

/** A site of the organization (a site of another organization answers as if it did not exist). */
export function findSite(db: Executor, organizationId: string, id: string) {
  return db
    .selectFrom('sites')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findSiteById(db: Executor, id: string) {
  return db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateSite(db: Executor, id: string, patch: Partial<SiteRow>): Promise<void> {
  await db.updateTable('sites').set(patch).where('id', '=', id).execute();
}

/** Marks a change to the site or its structure: cached renderings keyed by the old version are never used again. */
export async function bumpSiteVersion(db: Executor, id: string, now: string): Promise<void> {
  await db
    .updateTable('sites')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: now }))
    .where('id', '=', id)
    .execute();
}

export async function deleteSite(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('sites').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export interface SiteListFilter {
  organizationId: string;
  spaceId?: string;
  titleContains?: string;
  published?: boolean;
  types?: string[];
}

function filteredSites(db: Executor, f: SiteListFilter) {
  let q = db.selectFrom('sites').where('organization_id', '=', f.organizationId);
  if (f.titleContains !== undefined) {
    q = q.where(sql<boolean>`lower(title) like ${containsPattern(f.titleContains.toLowerCase())} escape '\\'`);
  }
  if (f.published !== undefined) q = q.where('published', '=', f.published ? 1 : 0);
  if (f.types?.length) q = q.where('type', 'in', f.types);
  if (f.spaceId !== undefined) {
    const spaceId = f.spaceId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('site_spaces')
          .select('site_spaces.id')
          .whereRef('site_spaces.site_id', '=', 'sites.id')
          .where('site_spaces.space_id', '=', spaceId),
      ),
    );
  }
  return q;
}

export function listSites(db: Executor, f: SiteListFilter, after: string[] | undefined, take: number) {
  let q = filteredSites(db, f).selectAll().orderBy('id').limit(take);
  if (after) q = q.where('id', '>', after[0]!);
  return q.execute();
}

export async function countSites(db: Executor, f: SiteListFilter): Promise<number> {
  const r = await filteredSites(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

// Structure

export function listGroups(db: Executor, siteId: string) {
  return db
    .selectFrom('site_section_groups')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export function listSections(db: Executor, siteId: string) {
  return db
    .selectFrom('site_sections')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export function listSiteSpaces(db: Executor, siteId: string) {
  return db
    .selectFrom('site_spaces')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function insertGroup(db: Executor, row: SectionGroupRow): Promise<void> {
  await db.insertInto('site_section_groups').values(row).execute();
}
export async function updateGroup(db: Executor, id: string, patch: Partial<SectionGroupRow>): Promise<void> {
  await db.updateTable('site_section_groups').set(patch).where('id', '=', id).execute();
}
export async function deleteGroup(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('site_section_groups').where('id', '=', id).execute();
}

export async function insertSection(db: Executor, row: SectionRow): Promise<void> {
  await db.insertInto('site_sections').values(row).execute();
}
export async function updateSection(db: Executor, id: string, patch: Partial<SectionRow>): Promise<void> {
  await db.updateTable('site_sections').set(patch).where('id', '=', id).execute();
}
export async function deleteSection(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('site_sections').where('id', '=', id).execute();
}

export async function insertSiteSpace(db: Executor, row: SiteSpaceRow): Promise<void> {
  await db.insertInto('site_spaces').values(row).execute();
}
export async function updateSiteSpace(db: Executor, id: string, patch: Partial<SiteSpaceRow>): Promise<void> {
  await db.updateTable('site_spaces').set(patch).where('id', '=', id).execute();
}
export async function deleteSiteSpace(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('site_spaces').where('id', '=', id).execute();
}

/** For each site space of these sites: its site and what the levels of its space need. */
export function siteSpaceTargets(db: Executor, siteIds: string[]) {
  if (siteIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('site_spaces')
    .innerJoin('spaces', 'spaces.id', 'site_spaces.space_id')
    .select([
      'site_spaces.site_id',
      'spaces.id',
      'spaces.organization_id',
      'spaces.parent_id',
      'spaces.default_level',
      'spaces.created_by',
    ])
    .where('site_spaces.site_id', 'in', siteIds)
    .execute();
}

/**
 * The spaces that published sites show (not in the trash), with their current revision, the most recently updated
 * first: at most `limit`.
 */
export function publishedSpaceRevisions(db: Executor, limit: number) {
  return (
    db
      .selectFrom('spaces')
      .select(['spaces.id as space_id', 'spaces.revision_id', 'spaces.updated_at'])
      .where('spaces.deleted_at', 'is', null)
      // Found from the published sites' site spaces (a few), not by looking at every space.
      .where('spaces.id', 'in', (eb) =>
        eb
          .selectFrom('site_spaces')
          .innerJoin('sites', 'sites.id', 'site_spaces.site_id')
          .select('site_spaces.space_id')
          .where('sites.published', '=', 1),
      )
      .orderBy('spaces.updated_at', 'desc')
      .orderBy('spaces.id')
      .limit(limit)
      .execute()
  );
}

/** The spaces a site shows: their current revision, title and trash state (read for every published page). */
export function spacesByIds(db: Executor, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('spaces').selectAll().where('id', 'in', ids).execute();
}

// Share links

export async function insertShareLink(db: Executor, row: ShareLinkRow): Promise<void> {
  await db.insertInto('site_share_links').values(row).execute();
}

export function findShareLink(db: Executor, siteId: string, id: string) {
  return db
    .selectFrom('site_share_links')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The active share link of the site with this key, if any. */
export function findActiveShareLinkByKey(db: Executor, siteId: string, key: string) {
  return db
    .selectFrom('site_share_links')
    .select(['id'])
    .where('site_id', '=', siteId)
    .where('key', '=', key)
    .where('active', '=', 1)
    .executeTakeFirst();
}

export function listShareLinks(db: Executor, siteId: string, after: string[] | undefined, take: number) {
  let q = db.selectFrom('site_share_links').selectAll().where('site_id', '=', siteId).orderBy('id').limit(take);
  if (after) q = q.where('id', '>', after[0]!);
  return q.execute();
}

export async function countShareLinks(db: Executor, siteId: string): Promise<number> {
  const r = await db
    .selectFrom('site_share_links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function updateShareLink(db: Executor, id: string, patch: Partial<ShareLinkRow>): Promise<void> {
  await db.updateTable('site_share_links').set(patch).where('id', '=', id).execute();
}

export async function deleteShareLink(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('site_share_links').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// Site redirects

export async function insertRedirect(db: Executor, row: SiteRedirectRow): Promise<void> {
  await db.insertInto('site_redirects').values(row).execute();
}

export function findRedirect(db: Executor, siteId: string, id: string) {
  return db
    .selectFrom('site_redirects')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findRedirectBySource(db: Executor, siteId: string, source: string) {
  return db
    .selectFrom('site_redirects')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('source', '=', source)
    .executeTakeFirst();
}

/** The redirects of a site, those whose source contains `search` (any case) when given. */
function redirectsOf(db: Executor, siteId: string, search: string | undefined) {
  const q = db.selectFrom('site_redirects').where('site_id', '=', siteId);
  return search ? q.where(sql<boolean>`lower(source) like ${containsPattern(search.toLowerCase())} escape '\\'`) : q;
}

/** Redirects of a site by id (see redirectsOf). */
export function listRedirects(
  db: Executor,
  siteId: string,
  search: string | undefined,
  after: string[] | undefined,
  take: number,
) {
  let q = redirectsOf(db, siteId, search).selectAll();
  if (after) q = q.where('id', '>', after[0]!);
  return q.orderBy('id').limit(take).execute();
}

export async function countRedirects(db: Executor, siteId: string, search?: string): Promise<number> {
  const row = await redirectsOf(db, siteId, search)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function updateRedirect(db: Executor, id: string, patch: Partial<SiteRedirectRow>): Promise<void> {
  await db.updateTable('site_redirects').set(patch).where('id', '=', id).execute();
}

export async function deleteRedirect(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('site_redirects').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
