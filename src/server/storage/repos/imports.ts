import type { Executor } from '../db.js';
import type { ImportRunsTable } from '../schema.js';

export type ImportRunRow = ImportRunsTable;

export async function insertImportRun(db: Executor, row: ImportRunRow): Promise<void> {
  await db.insertInto('import_runs').values(row).execute();
}

export async function updateImportRun(
  db: Executor,
  spaceId: string,
  id: string,
  patch: Partial<Omit<ImportRunRow, 'space_id' | 'id'>>,
): Promise<void> {
  await db.updateTable('import_runs').set(patch).where('space_id', '=', spaceId).where('id', '=', id).execute();
}

export function findImportRun(db: Executor, spaceId: string, id: string) {
  return db
    .selectFrom('import_runs')
    .selectAll()
    .where('space_id', '=', spaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Newest first, keyset-paginated on (created_at, id). */
export function listImportRuns(db: Executor, spaceId: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('import_runs')
    .selectAll()
    .where('space_id', '=', spaceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(take);
  if (after) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after[0]!, after[1]!)));
  return q.execute();
}

export async function countImportRuns(db: Executor, spaceId: string): Promise<number> {
  const r = await db
    .selectFrom('import_runs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('space_id', '=', spaceId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
