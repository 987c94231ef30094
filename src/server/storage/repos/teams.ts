import { sql } from 'kysely';
import { containsPattern } from '../like.js';
import type { Executor } from '../db.js';
import type { TeamsTable, TeamMembersTable } from '../schema.js';
import { MEMBER_COLUMNS, MEMBER_COUNTERS } from './members.js';

export type TeamRow = TeamsTable;
export type TeamMemberRow = TeamMembersTable;

/**
 * The live spaces a team has access to through its grants: granted on the space, or inside a collection granted
 * to it, at any depth (as the resolver's rule 6 reads grants). Over `teams`; each step is an index look-up
 * (grants by team, collections and spaces by parent).
 */
export const teamSpacesCount = sql<number>`(with recursive reach(id, depth) as (
    select g.collection_id, 0 from collection_grants g where g.team_id = teams.id
    union all
    select c.id, reach.depth + 1 from collections c join reach on c.parent_id = reach.id where reach.depth < 100
  )
  select count(*) from spaces s where s.deleted_at is null
    and (s.id in (select g.space_id from space_grants g where g.team_id = teams.id)
      or s.parent_id in (select id from reach)))`;

/**
 * A team with its exact counters, computed when read: its members, and the live spaces granted to it. Also the
 * role in the team of `viewerId` (null when they are not in it), for the team's `permissions`.
 */
function teamColumns(viewerId: string) {
  return [
    'teams.id',
    'teams.organization_id',
    'teams.title',
    'teams.created_at',
    'teams.updated_at',
    sql<number>`(select count(*) from team_members tm where tm.team_id = teams.id)`.as('members_count'),
    teamSpacesCount.as('spaces_count'),
    sql<
      string | null
    >`(select tm.role from team_members tm where tm.team_id = teams.id and tm.user_id = ${viewerId})`.as('viewer_role'),
  ] as const;
}

export function findTeam(db: Executor, organizationId: string, teamId: string) {
  return db
    .selectFrom('teams')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', teamId)
    .executeTakeFirst();
}

/** The team for presenting to `viewerId`. */
export function findTeamView(db: Executor, organizationId: string, teamId: string, viewerId: string) {
  return db
    .selectFrom('teams')
    .select(teamColumns(viewerId))
    .where('teams.organization_id', '=', organizationId)
    .where('teams.id', '=', teamId)
    .executeTakeFirst();
}
export type TeamView = NonNullable<Awaited<ReturnType<typeof findTeamView>>>;

export async function insertTeam(db: Executor, row: TeamRow): Promise<void> {
  await db.insertInto('teams').values(row).execute();
}

export async function renameTeam(db: Executor, teamId: string, title: string, at: string): Promise<void> {
  await db.updateTable('teams').set({ title, updated_at: at }).where('id', '=', teamId).execute();
}

export async function deleteTeam(db: Executor, organizationId: string, teamId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('teams')
    .where('organization_id', '=', organizationId)
    .where('id', '=', teamId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Locks the team's row for the transaction (a no-op write, portable to SQLite, which has no SELECT FOR UPDATE),
 * so concurrent membership changes of one team apply one at a time.
 */
export async function lockTeam(db: Executor, teamId: string): Promise<void> {
  await db.updateTable('teams').set({ id: teamId }).where('id', '=', teamId).execute();
}

export interface TeamListFilter {
  organizationId: string;
  titleContains?: string;
  /** Only the teams this user owns. */
  ownedBy?: string;
  /** Only the teams this user is in. */
  memberId?: string;
}

function filteredTeams(db: Executor, f: TeamListFilter) {
  let q = db.selectFrom('teams').where('teams.organization_id', '=', f.organizationId);
  if (f.titleContains !== undefined) {
    q = q.where(sql<boolean>`lower(teams.title) like ${containsPattern(f.titleContains.toLowerCase())} escape '\\'`);
  }
  if (f.ownedBy !== undefined) {
    const owner = f.ownedBy;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('team_members as o')
          .select('o.team_id')
          .whereRef('o.team_id', '=', 'teams.id')
          .where('o.user_id', '=', owner)
          .where('o.role', '=', 'owner'),
      ),
    );
  }
  if (f.memberId !== undefined) {
    const member = f.memberId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('team_members as m')
          .select('m.team_id')
          .whereRef('m.team_id', '=', 'teams.id')
          .where('m.user_id', '=', member),
      ),
    );
  }
  return q;
}

/** Teams by id (creation order), keyset-paginated. */
export function listTeams(
  db: Executor,
  f: TeamListFilter,
  viewerId: string,
  after: string[] | undefined,
  take: number,
) {
  let q = filteredTeams(db, f).select(teamColumns(viewerId)).orderBy('teams.id').limit(take);
  if (after) q = q.where('teams.id', '>', after[0]!);
  return q.execute();
}

/** Ids of the teams of the organization that the user is in, by id. */
export async function teamIdsOfMember(db: Executor, organizationId: string, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('team_members')
    .select('team_id')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .orderBy('team_id')
    .execute();
  return rows.map((r) => r.team_id);
}

export async function countTeams(db: Executor, f: TeamListFilter): Promise<number> {
  const r = await filteredTeams(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The role of one user in each of these teams (for the member-teams list). */
export function teamRolesOf(db: Executor, userId: string, teamIds: string[]) {
  if (!teamIds.length) return Promise.resolve([]);
  return db
    .selectFrom('team_members')
    .select(['team_id', 'role'])
    .where('user_id', '=', userId)
    .where('team_id', 'in', teamIds)
    .execute();
}

/** Adds the member with `role`, or changes their role when they are in already. */
export async function upsertTeamMember(db: Executor, row: TeamMemberRow): Promise<void> {
  await db
    .insertInto('team_members')
    .values(row)
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ role: row.role }))
    .execute();
}

/** Adds the member as `member` when they are not in the team; leaves an existing role alone. */
export async function addTeamMemberIfAbsent(db: Executor, row: TeamMemberRow): Promise<void> {
  await db
    .insertInto('team_members')
    .values(row)
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

export async function removeTeamMember(db: Executor, teamId: string, userId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Removes the user from every team of the organization (when they leave it). */
export async function removeFromAllTeams(db: Executor, organizationId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('team_members')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

function teamMembersQuery(db: Executor, teamId: string) {
  return db
    .selectFrom('team_members')
    .innerJoin('members', (j) =>
      j
        .onRef('members.organization_id', '=', 'team_members.organization_id')
        .onRef('members.user_id', '=', 'team_members.user_id'),
    )
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .where('team_members.team_id', '=', teamId);
}

/** Members of a team, with their organization membership, by user id. */
export function listTeamMembers(db: Executor, teamId: string, after: string[] | undefined, take: number) {
  let q = teamMembersQuery(db, teamId)
    .select(MEMBER_COLUMNS)
    .select(MEMBER_COUNTERS)
    .select('team_members.role as team_role')
    .orderBy('team_members.user_id')
    .limit(take);
  if (after) q = q.where('team_members.user_id', '>', after[0]!);
  return q.execute();
}

export async function countTeamMembers(db: Executor, teamId: string): Promise<number> {
  const r = await teamMembersQuery(db, teamId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Members of the organization named by user id or by e-mail among `refs`: one query. */
export function membersByRefs(db: Executor, organizationId: string, refs: string[]) {
  if (!refs.length) return Promise.resolve([]);
  const emails = refs.map((r) => r.toLowerCase());
  return db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['members.user_id', 'users.email'])
    .where('members.organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('users.id', 'in', refs), eb('users.email', 'in', emails)]))
    .execute();
}

/** Titles of these teams of the organization, by id. */
export async function teamTitles(db: Executor, organizationId: string, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('teams')
    .select(['id', 'title'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** The ids of a team's members, at most `take`. */
export async function teamMemberIds(db: Executor, teamId: string, take: number): Promise<string[]> {
  const rows = await db
    .selectFrom('team_members')
    .select('user_id')
    .where('team_id', '=', teamId)
    .limit(take)
    .execute();
  return rows.map((r) => r.user_id);
}
