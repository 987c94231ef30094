import { sql } from 'kysely';
import type { Executor } from '../db.js';
import type { MembersTable } from '../schema.js';

export type MembershipRow = MembersTable;

export function findMembership(db: Executor, organizationId: string, userId: string) {
  return db
    .selectFrom('members')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Adds the member, or raises their role when they are already in with a lower one. */
export async function insertMembership(db: Executor, row: MembershipRow): Promise<void> {
  await db
    .insertInto('members')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
    .execute();
}

export async function updateMemberRole(db: Executor, organizationId: string, userId: string, role: string | null) {
  await db
    .updateTable('members')
    .set({ role })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function countAdmins(db: Executor, organizationId: string): Promise<number> {
  const r = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** A member with their user, for presenting. */
export const MEMBER_COLUMNS = [
  'members.organization_id',
  'members.user_id',
  'members.role',
  'members.disabled',
  'members.joined_at',
  'members.last_seen_at',
  'users.display_name',
  'users.email',
  'users.photo_url',
] as const;

export function findMemberWithUser(db: Executor, organizationId: string, userId: string) {
  return db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(MEMBER_COLUMNS)
    .where('members.organization_id', '=', organizationId)
    .where('members.user_id', '=', userId)
    .executeTakeFirst();
}
export type MemberWithUserRow = NonNullable<Awaited<ReturnType<typeof findMemberWithUser>>>;

export async function deleteMembership(db: Executor, organizationId: string, userId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('members')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export interface MemberListFilter {
  organizationId: string;
  /** A role, or 'guest' for members without one. */
  role?: string;
  /** Case-insensitive part of the display name or e-mail. */
  search?: string;
}

function filteredMembers(db: Executor, f: MemberListFilter) {
  let q = db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .where('members.organization_id', '=', f.organizationId);
  if (f.role === 'guest') q = q.where('members.role', 'is', null);
  else if (f.role) q = q.where('members.role', '=', f.role);
  if (f.search) {
    const pattern = `%${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(users.display_name)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(users.email)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  return q;
}

/** Members with their users, by join time (newest first unless `order` is asc), keyset-paginated. */
export function listMembers(
  db: Executor,
  f: MemberListFilter,
  order: 'asc' | 'desc',
  after: string[] | undefined,
  take: number,
) {
  let q = filteredMembers(db, f)
    .select(MEMBER_COLUMNS)
    .orderBy('members.joined_at', order)
    .orderBy('members.user_id', order)
    .limit(take);
  if (after) {
    q = q.where((eb) =>
      eb(
        eb.refTuple('members.joined_at', 'members.user_id'),
        order === 'desc' ? '<' : '>',
        eb.tuple(after[0]!, after[1]!),
      ),
    );
  }
  return q.execute();
}

export async function countMembers(db: Executor, f: MemberListFilter): Promise<number> {
  const r = await filteredMembers(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
