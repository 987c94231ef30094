import { sql } from 'kysely';
import { containsPattern } from '../like.js';
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

/**
 * Whether `userId` belongs to an organization (as a member or a guest) in which `callerId` is a member: not a
 * guest, not disabled.
 */
export async function sharesOrganization(db: Executor, callerId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('members as caller')
    .innerJoin('members as other', 'other.organization_id', 'caller.organization_id')
    .select('caller.organization_id')
    .where('caller.user_id', '=', callerId)
    .where('caller.role', 'is not', null)
    .where('caller.disabled', '=', 0)
    .where('other.user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
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

/** Fragments shorter than a trigram cannot use the trigram indexes: they are searched by a scan. */
const TRIGRAM = 3;
/**
 * Beyond this many users whose name or e-mail holds the fragment (in any organization), narrowing the list to
 * them costs more than scanning the organization's members (a domain every member's e-mail has, say).
 */
const CANDIDATES_MAX = 5000;

/** `search` as a LIKE pattern of a lower-cased substring, with LIKE's own wildcards escaped. */
function searchPattern(search: string): string {
  return containsPattern(search.toLowerCase());
}

/** The search itself: a case-insensitive part of the display name or e-mail. */
function matchesSearch(search: string) {
  const pattern = searchPattern(search);
  // E-mails are stored lower-cased (sign-up, invites and SSO all lower-case them): no lower() per row there,
  // and PostgreSQL's trigram index is on `email` itself.
  return sql<boolean>`(lower(users.display_name) like ${pattern} escape '\\'
    or users.email like ${pattern} escape '\\')`;
}

/** How the search of a filter runs: the LIKE on each member's user, the LIKE on candidates only, or candidates. */
interface SearchPlan {
  /** Compare names and e-mails (the LIKE of `matchesSearch`). */
  like: boolean;
  /** The members are among these users. */
  candidates?: string[];
}

/**
 * Plans the search of `f`. A fragment of 3 characters or more is looked up in the trigram indexes of migration
 * 009 first, once (a page and its count share the filter object), and the members are narrowed to the users
 * found, unless more than CANDIDATES_MAX are (a scan of the organization's members costs less then).
 *
 * PostgreSQL: the users whose name or e-mail holds the fragment, by the search's own LIKE (which its pg_trgm
 * indexes serve), are the answer: the members need no other comparison. Given as a list, since a join of that
 * LIKE with the members leads the planner to read every member of the organization (it prices a thousand index
 * lookups above one scan). SQLite: the users the FTS5 table finds, whose lower-cased name or e-mail holds the
 * fragment, are checked by the LIKE; so a row written by a client whose lower() differs is never wrongly found.
 */
function planSearch(db: Executor, f: MemberListFilter): Promise<SearchPlan> {
  if (!f.search) return Promise.resolve({ like: false });
  const text = f.search.toLowerCase();
  if ([...text].length < TRIGRAM) return Promise.resolve({ like: true });
  let plan = searchPlans.get(f);
  if (!plan) {
    const sqlite = isSqlite(db);
    const query = sqlite
      ? // A quoted phrase of the FTS5 trigram table matches a substring.
        sql<{ id: string }>`select r.user_id as id from user_search s join user_search_rows r on r.id = s.rowid
          where user_search match ${`"${text.replace(/"/g, '""')}"`} limit ${CANDIDATES_MAX + 1}`
      : sql<{ id: string }>`select id from users where ${matchesSearch(f.search)} limit ${CANDIDATES_MAX + 1}`;
    plan = query
      .execute(db)
      .then(({ rows }) =>
        rows.length > CANDIDATES_MAX ? { like: true } : { like: sqlite, candidates: rows.map((r) => r.id) },
      );
    searchPlans.set(f, plan);
  }
  return plan;
}
const searchPlans = new WeakMap<MemberListFilter, Promise<SearchPlan>>();

/** The member is one of `candidates`: one parameter whatever their number, so the statement stays the same. */
function amongCandidates(db: Executor, candidates: string[]) {
  return isSqlite(db)
    ? sql<boolean>`members.user_id in (select value from json_each(${JSON.stringify(candidates)}))`
    : sql<boolean>`members.user_id = any(${candidates})`;
}

function filteredMembers(db: Executor, f: MemberListFilter, search: SearchPlan) {
  let q = db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .where('members.organization_id', '=', f.organizationId);
  if (f.seenOnly) q = q.where('members.last_seen_at', 'is not', null);
  if (f.role === 'guest') q = q.where('members.role', 'is', null);
  else if (f.role) q = q.where('members.role', '=', f.role);
  if (search.candidates) q = q.where(amongCandidates(db, search.candidates));
  if (search.like) q = q.where(matchesSearch(f.search!));
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
  const search = await planSearch(db, f);
  // SQLite walks the organization's members in that order, looking each up among the candidates, until a page is
  // full: all of them when fewer match. When the candidates are no more than a page, it had better start from
  // them and sort those: a unary + keeps it from using the index for the order.
  const fromCandidates = isSqlite(db) && search.candidates && search.candidates.length <= take;
  let q = filteredMembers(db, f, search)
    .select(MEMBER_COLUMNS)
    .select(MEMBER_COUNTERS)
    .orderBy(fromCandidates ? sql`+${sql.ref(column)}` : sql.ref(column), order)
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
  const search = await planSearch(db, f);
  if (!search.like) {
    // Every member has a user: unless names or e-mails are compared, the count needs the members only.
    let q = db
      .selectFrom('members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', f.organizationId);
    if (f.seenOnly) q = q.where('last_seen_at', 'is not', null);
    if (f.role === 'guest') q = q.where('role', 'is', null);
    else if (f.role) q = q.where('role', '=', f.role);
    if (search.candidates) q = q.where(amongCandidates(db, search.candidates));
    return Number((await q.executeTakeFirstOrThrow()).n);
  }
  const r = await filteredMembers(db, f, search)
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
