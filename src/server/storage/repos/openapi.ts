import type { Executor } from '../db.js';
import type { OpenApiSpecsTable, OpenApiVersionsTable } from '../schema.js';

export type OpenApiSpecRow = OpenApiSpecsTable;
export type OpenApiVersionRow = OpenApiVersionsTable;
/** A version without its text and document (lists, lookups). */
export type OpenApiVersionMeta = Pick<
  OpenApiVersionRow,
  'id' | 'spec_id' | 'hash' | 'filename' | 'source_url' | 'specification' | 'created_at'
>;

const META = ['id', 'spec_id', 'hash', 'filename', 'source_url', 'specification', 'created_at'] as const;

export function findSpec(db: Executor, organizationId: string, slug: string) {
  return db
    .selectFrom('openapi_specs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

export function findSpecById(db: Executor, id: string) {
  return db.selectFrom('openapi_specs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The specs of these slugs in an organization (the blocks of a page name them by slug). */
export function findSpecsBySlug(db: Executor, organizationId: string, slugs: string[]) {
  if (!slugs.length) return Promise.resolve([]);
  return db
    .selectFrom('openapi_specs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('slug', 'in', slugs)
    .execute();
}

export async function insertSpec(db: Executor, row: OpenApiSpecRow): Promise<void> {
  await db.insertInto('openapi_specs').values(row).execute();
}

export async function updateSpec(db: Executor, id: string, patch: Partial<OpenApiSpecRow>): Promise<void> {
  await db.updateTable('openapi_specs').set(patch).where('id', '=', id).execute();
}

/**
 * Changes a spec only if its source is still the one a job started from: a newer source makes the job's result
 * stale. False when it was stale (or the spec is gone).
 */
export async function updateSpecAtRevision(
  db: Executor,
  id: string,
  revision: number,
  patch: Partial<OpenApiSpecRow>,
): Promise<boolean> {
  const r = await db
    .updateTable('openapi_specs')
    .set(patch)
    .where('id', '=', id)
    .where('source_revision', '=', revision)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteSpec(db: Executor, organizationId: string, slug: string): Promise<boolean> {
  const r = await db
    .deleteFrom('openapi_specs')
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export function listSpecs(db: Executor, organizationId: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('openapi_specs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('slug')
    .limit(take);
  if (after) q = q.where('slug', '>', after[0]!);
  return q.execute();
}

export async function countSpecs(db: Executor, organizationId: string): Promise<number> {
  const r = await db
    .selectFrom('openapi_specs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertVersion(db: Executor, row: OpenApiVersionRow): Promise<void> {
  await db.insertInto('openapi_versions').values(row).execute();
}

export function findVersionMeta(db: Executor, specId: string, id: string): Promise<OpenApiVersionMeta | undefined> {
  return db
    .selectFrom('openapi_versions')
    .select(META)
    .where('spec_id', '=', specId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findVersion(db: Executor, specId: string, id: string) {
  return db
    .selectFrom('openapi_versions')
    .selectAll()
    .where('spec_id', '=', specId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Newest first. */
export function listVersions(db: Executor, specId: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('openapi_versions')
    .select(META)
    .where('spec_id', '=', specId)
    .orderBy('id', 'desc')
    .limit(take);
  if (after) q = q.where('id', '<', after[0]!);
  return q.execute();
}

export async function countVersions(db: Executor, specId: string): Promise<number> {
  const r = await db
    .selectFrom('openapi_versions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('spec_id', '=', specId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
