import { sql } from 'kysely';
import { prefixPattern } from '../like.js';
import { slicedParts } from '../../lib/yield.js';
import { findByHash, insertByHash } from './by-hash.js';
import { isSqlite, type Executor } from '../db.js';
import type {
  LinkDepsTable,
  LinkPagesTable,
  LinkScopesTable,
  LinkTargetsTable,
  LinksTable,
  LinkFilesTable,
  LinkIncludesTable,
} from '../schema.js';

/** Links and backlinks: the SQL of src/server/domain/links (tables of migration 011). */

export type LinkScopeRow = LinkScopesTable;
export type LinkPageRow = LinkPagesTable;
export type LinkRow = LinksTable;
export type LinkTargetRow = LinkTargetsTable;

/** Rows per statement: under SQLite's and PostgreSQL's limits on bound parameters. */
const CHUNK = 500;

/** `items` in parts of `size` (CHUNK by default), pausing between parts (see slicedParts). */
const chunks = <T>(items: T[], size = CHUNK) => slicedParts(items, size);

// Documents

/** Stored links of these documents (JSON), by hash. */
export const findDocuments = (db: Executor, hashes: string[]) => findByHash(db, 'link_documents', hashes);

/** Stores documents' links (an existing hash is left alone). */
export const insertDocuments = (db: Executor, documents: Map<string, string>) =>
  insertByHash(db, 'link_documents', documents);

// Scopes

export function findScope(db: Executor, id: string): Promise<LinkScopeRow | undefined> {
  return db.selectFrom('link_scopes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The scope's row, locked until the transaction ends (concurrent maintenance of one scope queues). */
export async function lockScope(db: Executor, id: string): Promise<LinkScopeRow | undefined> {
  // A column that is not a key: setting the key, even to itself, makes SQLite look for the rows referring to it
  // (every link of the scope) to check the foreign keys.
  await db
    .updateTable('link_scopes')
    .set((eb) => ({ revision_id: eb.ref('revision_id') }))
    .where('id', '=', id)
    .execute();
  return findScope(db, id);
}

export async function insertScope(db: Executor, row: LinkScopeRow): Promise<void> {
  await db.insertInto('link_scopes').values(row).execute();
}

export async function updateScope(db: Executor, id: string, patch: Partial<LinkScopeRow>): Promise<void> {
  await db.updateTable('link_scopes').set(patch).where('id', '=', id).execute();
}

/** Removes a scope with all its rows (in child-first order, as SQLite's foreign keys might be off). */
export async function deleteScope(db: Executor, id: string): Promise<void> {
  for (const table of ['link_targets', 'link_deps', 'links', 'link_files', 'link_includes', 'link_pages'] as const) {
    await db.deleteFrom(table).where('scope_id', '=', id).execute();
  }
  await db.deleteFrom('link_scopes').where('id', '=', id).execute();
}

/** Copies every row of scope `from` into the new scope `to` (its scope row inserted already). */
export async function copyScopeRows(db: Executor, from: string, to: string): Promise<void> {
  const target = sql.val(to).as('scope_id');
  await db
    .insertInto('link_pages')
    .columns(['scope_id', 'page_id', 'type', 'title', 'path', 'path_key', 'document', 'anchors'])
    .expression(
      db
        .selectFrom('link_pages')
        .select([target, 'page_id', 'type', 'title', 'path', 'path_key', 'document', 'anchors'])
        .where('scope_id', '=', from),
    )
    .execute();
  await db
    .insertInto('link_includes')
    .columns(['scope_id', 'page_id', 'name'])
    .expression(db.selectFrom('link_includes').select([target, 'page_id', 'name']).where('scope_id', '=', from))
    .execute();
  await db
    .insertInto('link_files')
    .columns(['scope_id', 'file_id', 'name_key'])
    .expression(db.selectFrom('link_files').select([target, 'file_id', 'name_key']).where('scope_id', '=', from))
    .execute();
  await db
    .insertInto('links')
    .columns(['scope_id', 'id', 'page_id', 'position', 'href', 'relation', 'status', 'target_key'])
    .expression(
      db
        .selectFrom('links')
        .select([target, 'id', 'page_id', 'position', 'href', 'relation', 'status', 'target_key'])
        .where('scope_id', '=', from),
    )
    .execute();
  await db
    .insertInto('link_deps')
    .columns(['scope_id', 'dep_key', 'link_id', 'page_id', 'anchor'])
    .expression(
      db
        .selectFrom('link_deps')
        .select([target, 'dep_key', 'link_id', 'page_id', 'anchor'])
        .where('scope_id', '=', from),
    )
    .execute();
  await db
    .insertInto('link_targets')
    .columns(['scope_id', 'target_key', 'status', 'relation', 'data', 'usages'])
    .expression(
      db
        .selectFrom('link_targets')
        .select([target, 'target_key', 'status', 'relation', 'data', 'usages'])
        .where('scope_id', '=', from),
    )
    .execute();
}

// Pages and files of a scope

export async function pagesByIds(db: Executor, scope: string, ids: string[]): Promise<LinkPageRow[]> {
  const out: LinkPageRow[] = [];
  for await (const part of chunks([...new Set(ids)])) {
    out.push(
      ...(await db
        .selectFrom('link_pages')
        .selectAll()
        .where('scope_id', '=', scope)
        .where('page_id', 'in', part)
        .execute()),
    );
  }
  return out;
}

/** Document pages with these paths (by path key). */
export async function documentsByPathKeys(db: Executor, scope: string, keys: string[]): Promise<LinkPageRow[]> {
  const out: LinkPageRow[] = [];
  for await (const part of chunks([...new Set(keys)])) {
    out.push(
      ...(await db
        .selectFrom('link_pages')
        .selectAll()
        .where('scope_id', '=', scope)
        .where('path_key', 'in', part)
        .where('type', '=', 'document')
        .execute()),
    );
  }
  return out;
}

export async function upsertPages(db: Executor, rows: LinkPageRow[]): Promise<void> {
  for await (const part of chunks(rows, 200)) {
    await db
      .insertInto('link_pages')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['scope_id', 'page_id']).doUpdateSet((eb) => ({
          type: eb.ref('excluded.type'),
          title: eb.ref('excluded.title'),
          path: eb.ref('excluded.path'),
          path_key: eb.ref('excluded.path_key'),
          document: eb.ref('excluded.document'),
          anchors: eb.ref('excluded.anchors'),
        })),
      )
      .execute();
  }
}

export async function deletePages(db: Executor, scope: string, ids: string[]): Promise<void> {
  for await (const part of chunks(ids)) {
    await db.deleteFrom('link_pages').where('scope_id', '=', scope).where('page_id', 'in', part).execute();
  }
}

export async function filesByIds(db: Executor, scope: string, ids: string[]): Promise<LinkFilesTable[]> {
  const out: LinkFilesTable[] = [];
  for await (const part of chunks([...new Set(ids)])) {
    out.push(
      ...(await db
        .selectFrom('link_files')
        .selectAll()
        .where('scope_id', '=', scope)
        .where('file_id', 'in', part)
        .execute()),
    );
  }
  return out;
}

export async function filesByNameKeys(db: Executor, scope: string, keys: string[]): Promise<LinkFilesTable[]> {
  const out: LinkFilesTable[] = [];
  for await (const part of chunks([...new Set(keys)])) {
    out.push(
      ...(await db
        .selectFrom('link_files')
        .selectAll()
        .where('scope_id', '=', scope)
        .where('name_key', 'in', part)
        .execute()),
    );
  }
  return out;
}

export async function upsertFiles(db: Executor, rows: LinkFilesTable[]): Promise<void> {
  for await (const part of chunks(rows)) {
    await db
      .insertInto('link_files')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['scope_id', 'file_id']).doUpdateSet((eb) => ({ name_key: eb.ref('excluded.name_key') })),
      )
      .execute();
  }
}

export async function deleteFiles(db: Executor, scope: string, ids: string[]): Promise<void> {
  for await (const part of chunks(ids)) {
    await db.deleteFrom('link_files').where('scope_id', '=', scope).where('file_id', 'in', part).execute();
  }
}

// Links and what they depend on

export async function linksOfPages(db: Executor, scope: string, pageIds: string[]): Promise<LinkRow[]> {
  const out: LinkRow[] = [];
  for await (const part of chunks([...new Set(pageIds)])) {
    out.push(
      ...(await db
        .selectFrom('links')
        .selectAll()
        .where('scope_id', '=', scope)
        .where('page_id', 'in', part)
        .execute()),
    );
  }
  return out;
}

export async function linksByIds(db: Executor, scope: string, ids: string[]): Promise<LinkRow[]> {
  const out: LinkRow[] = [];
  for await (const part of chunks([...new Set(ids)])) {
    out.push(
      ...(await db.selectFrom('links').selectAll().where('scope_id', '=', scope).where('id', 'in', part).execute()),
    );
  }
  return out;
}

export async function deleteLinksOfPages(db: Executor, scope: string, pageIds: string[]): Promise<void> {
  for await (const part of chunks(pageIds)) {
    await db.deleteFrom('links').where('scope_id', '=', scope).where('page_id', 'in', part).execute();
    await db.deleteFrom('link_deps').where('scope_id', '=', scope).where('page_id', 'in', part).execute();
  }
}

/** The pages of a scope whose body includes a reusable content of one of these names (see link_includes). */
export async function pagesIncluding(db: Executor, scope: string, names: string[]): Promise<string[]> {
  const out = new Set<string>();
  for await (const part of chunks([...new Set(names)])) {
    const rows = await db
      .selectFrom('link_includes')
      .select('page_id')
      .where('scope_id', '=', scope)
      .where('name', 'in', part)
      .execute();
    for (const row of rows) out.add(row.page_id);
  }
  return [...out];
}

export async function deleteIncludesOfPages(db: Executor, scope: string, pageIds: string[]): Promise<void> {
  for await (const part of chunks(pageIds)) {
    await db.deleteFrom('link_includes').where('scope_id', '=', scope).where('page_id', 'in', part).execute();
  }
}

export async function insertIncludes(db: Executor, rows: LinkIncludesTable[]): Promise<void> {
  for await (const part of chunks(rows, 500)) await db.insertInto('link_includes').values(part).execute();
}

export async function insertLinks(db: Executor, rows: LinkRow[]): Promise<void> {
  for await (const part of chunks(rows, 200)) await db.insertInto('links').values(part).execute();
}

export async function insertDeps(db: Executor, rows: LinkDepsTable[]): Promise<void> {
  for await (const part of chunks(rows)) {
    await db
      .insertInto('link_deps')
      .values(part)
      .onConflict((oc) => oc.columns(['scope_id', 'dep_key', 'link_id']).doNothing())
      .execute();
  }
}

export async function setLinkTarget(
  db: Executor,
  scope: string,
  id: string,
  target: { status: string; target_key: string },
): Promise<void> {
  await db.updateTable('links').set(target).where('scope_id', '=', scope).where('id', '=', id).execute();
}

/** Ids of the links that depend on any of `keys`, or on any of `anchorKeys` through an anchor. */
export async function dependentLinks(
  db: Executor,
  scope: string,
  keys: ReadonlySet<string>,
  anchorKeys: ReadonlySet<string>,
): Promise<Array<{ link_id: string; page_id: string }>> {
  const out: Array<{ link_id: string; page_id: string }> = [];
  for await (const part of chunks([...keys])) {
    out.push(
      ...(await db
        .selectFrom('link_deps')
        .select(['link_id', 'page_id'])
        .where('scope_id', '=', scope)
        .where('dep_key', 'in', part)
        .execute()),
    );
  }
  for await (const part of chunks([...anchorKeys])) {
    out.push(
      ...(await db
        .selectFrom('link_deps')
        .select(['link_id', 'page_id'])
        .where('scope_id', '=', scope)
        .where('dep_key', 'in', part)
        .where('anchor', '=', 1)
        .execute()),
    );
  }
  return out;
}

// Targets

export async function targetsByKeys(db: Executor, scope: string, keys: string[]): Promise<LinkTargetRow[]> {
  const out: LinkTargetRow[] = [];
  for await (const part of chunks([...new Set(keys)])) {
    out.push(
      ...(await db
        .selectFrom('link_targets')
        .selectAll()
        .where('scope_id', '=', scope)
        .where('target_key', 'in', part)
        .execute()),
    );
  }
  return out;
}

export async function insertTargets(db: Executor, rows: LinkTargetRow[]): Promise<void> {
  for await (const part of chunks(rows, 200)) await db.insertInto('link_targets').values(part).execute();
}

export async function setTargetUsages(db: Executor, scope: string, key: string, usages: number): Promise<void> {
  await db
    .updateTable('link_targets')
    .set({ usages })
    .where('scope_id', '=', scope)
    .where('target_key', '=', key)
    .execute();
}

export async function deleteTargets(db: Executor, scope: string, keys: string[]): Promise<void> {
  for await (const part of chunks(keys)) {
    await db.deleteFrom('link_targets').where('scope_id', '=', scope).where('target_key', 'in', part).execute();
  }
}

// Reads of the lists

/** Targets of a scope in key order, after `after`, with `status` if given. */
export function listTargets(
  db: Executor,
  scope: string,
  status: string | undefined,
  after: string | undefined,
  take: number,
): Promise<LinkTargetRow[]> {
  let q = db.selectFrom('link_targets').selectAll().where('scope_id', '=', scope);
  if (status !== undefined) q = q.where('status', '=', status);
  if (after !== undefined) q = q.where('target_key', '>', after);
  return q.orderBy('target_key').limit(take).execute();
}

/**
 * The pages where each of these targets is linked from: at most `max` per target (the first by page id), one
 * indexed range read per target, so a target linked from every page costs what any other does.
 */
export async function locationsOf(
  db: Executor,
  scope: string,
  keys: string[],
  max: number,
): Promise<Array<{ target_key: string; page_id: string }>> {
  if (!keys.length) return [];
  const one = (key: string, i: number) =>
    db
      .selectFrom(
        db
          .selectFrom('links')
          .select(['target_key', 'page_id'])
          .distinct()
          .where('scope_id', '=', scope)
          .where('target_key', '=', key)
          .orderBy('page_id')
          .limit(max)
          .as(`t${i}`),
      )
      .selectAll();
  const out: Array<{ target_key: string; page_id: string }> = [];
  for await (const part of chunks(keys, 100)) {
    let q = one(part[0]!, 0);
    for (let i = 1; i < part.length; i++) q = q.unionAll(one(part[i]!, i));
    out.push(...(await q.execute()));
  }
  return out;
}

/**
 * The distinct targets linked from one page, each at the position of its first link, in that order (with
 * `status` if given, after position `after`).
 */
export function pageTargets(
  db: Executor,
  scope: string,
  pageId: string,
  status: string | undefined,
  after: number | undefined,
  take: number,
): Promise<Array<{ target_key: string; first: number }>> {
  let q = db
    .selectFrom('links')
    .select(['target_key', (eb) => eb.fn.min<number>('position').as('first')])
    .where('scope_id', '=', scope)
    .where('page_id', '=', pageId);
  if (status !== undefined) q = q.where('status', '=', status);
  let grouped = q.groupBy('target_key');
  if (after !== undefined) grouped = grouped.having((eb) => eb.fn.min('position'), '>', after);
  return grouped.orderBy('first').limit(take).execute();
}

/** How many distinct targets one page links to: all, and those with each status. */
export async function pageTargetCounts(db: Executor, scope: string, pageId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('links')
    .select(['status', (eb) => eb.fn.count<number>('target_key').distinct().as('n')])
    .where('scope_id', '=', scope)
    .where('page_id', '=', pageId)
    .groupBy('status')
    .execute();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * Broken targets of scope `scope` (of page `pageId` if given) that are not broken in scope `other`: the links a
 * change request breaks. Reads the broken targets only.
 */
export async function countBrokenOnlyIn(db: Executor, scope: string, other: string, pageId?: string): Promise<number> {
  const notInOther = (key: Parameters<typeof sql.ref>[0]) =>
    sql<boolean>`not exists (select 1 from link_targets o where o.scope_id = ${other} and o.target_key = ${sql.ref(key)})`;
  if (pageId === undefined) {
    const row = await db
      .selectFrom('link_targets as t')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('t.scope_id', '=', scope)
      .where('t.status', '=', 'broken')
      .where(notInOther('t.target_key'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
  const row = await db
    .selectFrom('links as l')
    .select((eb) => eb.fn.count<number>('l.target_key').distinct().as('n'))
    .where('l.scope_id', '=', scope)
    .where('l.page_id', '=', pageId)
    .where('l.status', '=', 'broken')
    .where(notInOther('l.target_key'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Pages linking to any of these targets, in page id order, after `after`. */
export function pagesLinkingTo(
  db: Executor,
  scope: string,
  keys: string[],
  after: string | undefined,
  take: number,
): Promise<Array<{ page_id: string }>> {
  let q = db
    .selectFrom('links')
    .select('page_id')
    .distinct()
    .where('scope_id', '=', scope)
    .where('target_key', 'in', keys);
  if (after !== undefined) q = q.where('page_id', '>', after);
  return q.orderBy('page_id').limit(take).execute();
}

export async function countPagesLinkingTo(db: Executor, scope: string, keys: string[]): Promise<number> {
  const row = await db
    .selectFrom('links')
    .select((eb) => eb.fn.count<number>('page_id').distinct().as('n'))
    .where('scope_id', '=', scope)
    .where('target_key', 'in', keys)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Live spaces whose links are missing, behind their content, or computed for another PUBLIC_URL. */
export function staleLinkSpaces(
  db: Executor,
  appBase: string,
): Promise<Array<{ id: string; revision_id: string; scope_revision_id: string | null; app_base: string | null }>> {
  return db
    .selectFrom('spaces as s')
    .leftJoin('link_scopes as l', 'l.id', 's.id')
    .select(['s.id', 's.revision_id', 'l.revision_id as scope_revision_id', 'l.app_base'])
    .where('s.deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('l.id', 'is', null),
        eb('l.revision_id', '!=', eb.ref('s.revision_id')),
        eb('l.app_base', '!=', appBase),
      ]),
    )
    .orderBy('s.id')
    .execute();
}

/**
 * PostgreSQL: refreshes the planner's statistics of the link tables, after a build wrote many rows at once. Until
 * autovacuum gets to it, the planner believes a scope has a few dozen targets and sorts all of them to page
 * through the list, instead of reading them in index order (10 ms for 20,000 targets instead of 0.1).
 */
export async function analyzeLinkTables(db: Executor): Promise<void> {
  if (isSqlite(db)) return;
  await sql`analyze link_targets, links, link_deps, link_pages, link_files`.execute(db);
}

/** Pages of a scope linking to a page (to it or to one of its anchors), in page id order. */
function linkingToPage(db: Executor, scope: string, pageId: string) {
  // Targets are stored as written: `{"k":"page","id":…` then an anchor when there is one.
  const prefix = prefixPattern(JSON.stringify({ k: 'page', id: pageId }).slice(0, -1));
  return db
    .selectFrom('links as l')
    .innerJoin('link_targets as t', (j) =>
      j.onRef('t.scope_id', '=', 'l.scope_id').onRef('t.target_key', '=', 'l.target_key'),
    )
    .where('l.scope_id', '=', scope)
    .where(sql<boolean>`t.data like ${prefix} escape '\\'`);
}

export function pagesLinkingToPage(
  db: Executor,
  scope: string,
  pageId: string,
  after: string | undefined,
  take: number,
): Promise<Array<{ page_id: string }>> {
  let q = linkingToPage(db, scope, pageId).select('l.page_id').distinct();
  if (after !== undefined) q = q.where('l.page_id', '>', after);
  return q.orderBy('l.page_id').limit(take).execute();
}

export async function countPagesLinkingToPage(db: Executor, scope: string, pageId: string): Promise<number> {
  const row = await linkingToPage(db, scope, pageId)
    .select((eb) => eb.fn.count<number>('l.page_id').distinct().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
