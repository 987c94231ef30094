import { sql } from 'kysely';
import { isSqlite, type Executor } from '../db.js';
import type { MembersTable } from '../schema.js';

/** A membership; `sso` defaults to 0 when inserting. */
export type MembershipRow = Omit<MembersTable, 'sso'> & { sso?: number };

export function findMembership(db: Executor, organizationId: string, userId: string) {
  return db
    .selectFrom('members')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** A membership with its organization's SSO enforcement, in one query (every request runs it). */
export async function findMembershipForAccess(db: Executor, organizationId: string, userId: string) {
  const result = await sql<MembersTable & { org_sso: number }>`select m.*, o.sso as org_sso from members m
    join organizations o on o.id = m.organization_id
    where m.organization_id = ${organizationId} and m.user_id = ${userId}`.execute(db);
  const row = result.rows[0];
  return row
    ? { ...row, org_sso: Number(row.org_sso), sso: Number(row.sso), disabled: Number(row.disabled) }
    : undefined;
}

/** Adds the member, or raises their role when they are already in with a lower one. */
export async function insertMembership(db: Executor, row: MembershipRow): Promise<void> {
  await db
    .insertInto('members')
    .values({ sso: 0, ...row })
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
  'members.sso',
  'users.display_name',
  'users.email',
  'users.photo_url',
] as const;

/**
 * Exact counters of a member, computed when read (so they can never drift): the teams they are in, and the
 * live spaces granted to them directly or through one of their teams.
 */
const teamsCount = sql<number>`(select count(*) from team_members tm
  where tm.organization_id = members.organization_id and tm.user_id = members.user_id)`;
const spacesCount = sql<number>`(select count(distinct g.space_id) from space_grants g
  join spaces s on s.id = g.space_id and s.deleted_at is null
  where g.organization_id = members.organization_id and (g.user_id = members.user_id or g.team_id in (
    select tm.team_id from team_members tm
    where tm.organization_id = members.organization_id and tm.user_id = members.user_id)))`;
/** Select these beside MEMBER_COLUMNS wherever members are presented. */
export const MEMBER_COUNTERS = [teamsCount.as('teams_count'), spacesCount.as('spaces_count')] as const;

export function findMemberWithUser(db: Executor, organizationId: string, userId: string) {
  return db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(MEMBER_COLUMNS)
    .select(MEMBER_COUNTERS)
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
  /** Only members seen at least once (the list sorted by last-seen time). */
  seenOnly?: boolean;
}

export type MemberSort = 'joinedAt' | 'lastSeenAt';

/** Fragments shorter than a trigram cannot use the trigram index: they are searched by a scan. */
const TRIGRAM = 3;
/**
 * On SQLite, beyond this many users whose name or e-mail holds the fragment (in any organization), looking each
 * of them up costs more than scanning the organization's members (a domain every member's e-mail has, say).
 */
const SQLITE_CANDIDATES_MAX = 5000;

/**
 * How the search of `f` is served. The filter is always the LIKE below; an index only narrows the rows it is
 * tried on. PostgreSQL's planner finds the pg_trgm indexes by itself. SQLite is told: the members whose user
 * the FTS5 trigram table `user_search` matches (same lower-cased text, same substring), when the fragment has
 * a trigram and few enough users match it.
 */
function useTrigrams(db: Executor, f: MemberListFilter): Promise<boolean> {
  if (!f.search || !isSqlite(db)) return Promise.resolve(false);
  const phrase = trigramPhrase(f.search);
  if (!phrase) return Promise.resolve(false);
  // A page and its count ask with the same filter: one look at the index serves both.
  let decided = trigramsDecided.get(f);
  if (!decided) {
    decided = sql<{ n: number }>`select count(*) as n from (select rowid from user_search
      where user_search match ${phrase} limit ${SQLITE_CANDIDATES_MAX + 1})`
      .execute(db)
      .then((r) => Number(r.rows[0]!.n) <= SQLITE_CANDIDATES_MAX);
    trigramsDecided.set(f, decided);
  }
  return decided;
}
const trigramsDecided = new WeakMap<MemberListFilter, Promise<boolean>>();

/** The FTS5 phrase matching `search` as a substring, or undefined when it is shorter than a trigram. */
function trigramPhrase(search: string): string | undefined {
  const text = search.toLowerCase();
  return [...text].length < TRIGRAM ? undefined : `"${text.replace(/"/g, '""')}"`;
}

function filteredMembers(db: Executor, f: MemberListFilter, trigrams = false) {
  let q = db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .where('members.organization_id', '=', f.organizationId);
  if (f.seenOnly) q = q.where('members.last_seen_at', 'is not', null);
  if (f.role === 'guest') q = q.where('members.role', 'is', null);
  else if (f.role) q = q.where('members.role', '=', f.role);
  if (f.search) {
    const pattern = `%${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // E-mails are stored lower-cased (sign-up, invites and SSO all lower-case them): no lower() per row there,
    // and PostgreSQL's trigram index is on `email` itself.
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(users.display_name)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`users.email`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
    if (trigrams) {
      q = q.where(
        'members.user_id',
        'in',
        sql<string>`(select r.user_id from user_search s join user_search_rows r on r.id = s.rowid
          where user_search match ${trigramPhrase(f.search)})`,
      );
    }
  }
  return q;
}

/**
 * Members with their users, by join time or last-seen time (newest first unless `order` is asc), then user id;
 * keyset-paginated on that pair, which an index of (organization, time, user) serves at any depth.
 */
export async function listMembers(
  db: Executor,
  f: MemberListFilter,
  sort: MemberSort,
  order: 'asc' | 'desc',
  after: string[] | undefined,
  take: number,
) {
  const column = sort === 'lastSeenAt' ? 'members.last_seen_at' : 'members.joined_at';
  let q = filteredMembers(db, f, await useTrigrams(db, f))
    .select(MEMBER_COLUMNS)
    .select(MEMBER_COUNTERS)
    .orderBy(column, order)
    .orderBy('members.user_id', order)
    .limit(take);
  if (after) {
    q = q.where((eb) =>
      eb(eb.refTuple(column, 'members.user_id'), order === 'desc' ? '<' : '>', eb.tuple(after[0]!, after[1]!)),
    );
  }
  return q.execute();
}

export async function countMembers(db: Executor, f: MemberListFilter): Promise<number> {
  if (!f.search) {
    // Every member has a user: without a search the count needs the members index only.
    let q = db
      .selectFrom('members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', f.organizationId);
    if (f.seenOnly) q = q.where('last_seen_at', 'is not', null);
    if (f.role === 'guest') q = q.where('role', 'is', null);
    else if (f.role) q = q.where('role', '=', f.role);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }
  const r = await filteredMembers(db, f, await useTrigrams(db, f))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function touchLastSeen(db: Executor, organizationId: string, userId: string, at: string) {
  await db
    .updateTable('members')
    .set({ last_seen_at: at })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function setMemberSso(db: Executor, organizationId: string, userId: string) {
  await db
    .updateTable('members')
    .set({ sso: 1 })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}
