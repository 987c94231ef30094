import { sql } from 'kysely';
import type { Executor } from '../db.js';
import type { ChangeRequestsTable } from '../schema.js';

export type ChangeRequestRow = ChangeRequestsTable;

/** A change request with its author's and merger's names, for presenting. */
function withUsers(db: Executor) {
  return db
    .selectFrom('change_requests as cr')
    .innerJoin('users as author', 'author.id', 'cr.created_by')
    .leftJoin('users as merger', 'merger.id', 'cr.merged_by')
    .selectAll('cr')
    .select([
      'author.display_name as author_name',
      'author.email as author_email',
      'author.photo_url as author_photo',
      'merger.display_name as merger_name',
      'merger.email as merger_email',
      'merger.photo_url as merger_photo',
    ]);
}
export type ChangeRequestView = NonNullable<Awaited<ReturnType<typeof findChangeRequest>>>;

/** By id, or by its number in the space when `idOrNumber` is all digits. */
export function findChangeRequest(db: Executor, spaceId: string, idOrNumber: string) {
  let q = withUsers(db).where('cr.space_id', '=', spaceId);
  q = /^\d{1,9}$/.test(idOrNumber) ? q.where('cr.number', '=', Number(idOrNumber)) : q.where('cr.id', '=', idOrNumber);
  return q.executeTakeFirst();
}

export async function insertChangeRequest(db: Executor, row: ChangeRequestRow): Promise<void> {
  await db.insertInto('change_requests').values(row).execute();
}

export async function updateChangeRequest(db: Executor, id: string, patch: Partial<ChangeRequestRow>): Promise<void> {
  await db.updateTable('change_requests').set(patch).where('id', '=', id).execute();
}

export async function nextNumber(db: Executor, spaceId: string): Promise<number> {
  const r = await db
    .selectFrom('change_requests')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
  return Number(r?.n ?? 0) + 1;
}

export interface ChangeRequestFilter {
  spaceId: string;
  status: ChangeRequestRow['status'];
  /** Only those this user created or edited. */
  contributor?: string;
}

function filtered(db: Executor, f: ChangeRequestFilter) {
  let q = withUsers(db).where('cr.space_id', '=', f.spaceId).where('cr.status', '=', f.status);
  if (f.contributor) {
    const user = f.contributor;
    q = q.where((eb) =>
      eb.or([
        eb('cr.created_by', '=', user),
        eb.exists(
          eb
            .selectFrom('revisions')
            .select(sql`1`.as('one'))
            .whereRef('revisions.change_request_id', '=', 'cr.id')
            .where('revisions.created_by', '=', user),
        ),
      ]),
    );
  }
  return q;
}

/** Newest first by `orderBy`, keyset-paginated on (that time, id). */
export function listChangeRequests(
  db: Executor,
  f: ChangeRequestFilter,
  orderBy: 'updated_at' | 'created_at',
  after: string[] | undefined,
  take: number,
) {
  let q = filtered(db, f).orderBy(`cr.${orderBy}`, 'desc').orderBy('cr.id', 'desc').limit(take);
  if (after) q = q.where((eb) => eb(eb.refTuple(`cr.${orderBy}`, 'cr.id'), '<', eb.tuple(after[0]!, after[1]!)));
  return q.execute();
}

export async function countChangeRequests(db: Executor, f: ChangeRequestFilter): Promise<number> {
  const r = await filtered(db, f)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Recomputes the space's change-request counters from the rows themselves, so they are always exact. */
export async function refreshSpaceCounters(db: Executor, spaceId: string): Promise<void> {
  const rows = await db
    .selectFrom('change_requests')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('space_id', '=', spaceId)
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  await db
    .updateTable('spaces')
    .set({
      change_requests: rows.reduce((sum, r) => sum + Number(r.n), 0),
      change_requests_open: count('open'),
      change_requests_draft: count('draft'),
    })
    .where('id', '=', spaceId)
    .execute();
}

/** Row lock on the space until the transaction ends (see lockOrganization): merges and edits queue on it. */
export async function lockSpace(db: Executor, spaceId: string): Promise<void> {
  await db.updateTable('spaces').set({ id: spaceId }).where('id', '=', spaceId).execute();
}
