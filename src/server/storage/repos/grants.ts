import { sql } from 'kysely';
import type { Executor } from '../db.js';
import type { SpaceGrantsTable, CollectionGrantsTable } from '../schema.js';
import { teamSpacesCount } from './teams.js';

/**
 * Explicit grants: a role on a space or on a collection given to a user or to a team. The two kinds of target
 * live in two tables with the same shape, so each can cascade from its own table.
 */
export type GrantTarget = { kind: 'space'; id: string } | { kind: 'collection'; id: string };
export type SpaceGrantRow = SpaceGrantsTable;
export type CollectionGrantRow = CollectionGrantsTable;

/*
 * Both tables have the same columns but the target's; queries built for either are typed as the space one
 * (the names below are the real ones at run time).
 */
function table(target: GrantTarget) {
  return (target.kind === 'space' ? 'space_grants' : 'collection_grants') as 'space_grants';
}
function column(target: GrantTarget) {
  return (target.kind === 'space' ? 'space_id' : 'collection_id') as 'space_id';
}

/** Sets the grant of a user or a team on the target (insert, or change its role). */
export async function upsertGrant(
  db: Executor,
  target: GrantTarget,
  grant: { id: string; organization_id: string; user_id: string | null; team_id: string | null; role: string },
  at: string,
): Promise<void> {
  const who = grant.user_id !== null ? ('user_id' as const) : ('team_id' as const);
  const values = { ...grant, created_at: at };
  if (target.kind === 'space') {
    await db
      .insertInto('space_grants')
      .values({ ...values, space_id: target.id })
      .onConflict((oc) => oc.columns(['space_id', who]).doUpdateSet({ role: grant.role }))
      .execute();
  } else {
    await db
      .insertInto('collection_grants')
      .values({ ...values, collection_id: target.id })
      .onConflict((oc) => oc.columns(['collection_id', who]).doUpdateSet({ role: grant.role }))
      .execute();
  }
}

export async function deleteGrant(
  db: Executor,
  target: GrantTarget,
  who: { userId: string } | { teamId: string },
): Promise<boolean> {
  let q = db.deleteFrom(table(target)).where(column(target), '=', target.id);
  q = 'userId' in who ? q.where('user_id', '=', who.userId) : q.where('team_id', '=', who.teamId);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export function findGrant(db: Executor, target: GrantTarget, who: { userId: string } | { teamId: string }) {
  let q = db.selectFrom(table(target)).select(['role']).where(column(target), '=', target.id);
  q = 'userId' in who ? q.where('user_id', '=', who.userId) : q.where('team_id', '=', who.teamId);
  return q.executeTakeFirst();
}

/** The user's own grants and their teams' grants in the organization: one query per kind of target. */
export async function grantsOfUser(db: Executor, organizationId: string, userId: string) {
  const teams = (eb: Executor) =>
    eb
      .selectFrom('team_members')
      .select('team_id')
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId);
  const [spaces, collections] = await Promise.all([
    db
      .selectFrom('space_grants')
      .select(['space_id as target', 'role'])
      .where('organization_id', '=', organizationId)
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('team_id', 'in', teams(db))]))
      .execute(),
    db
      .selectFrom('collection_grants')
      .select(['collection_id as target', 'role'])
      .where('organization_id', '=', organizationId)
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('team_id', 'in', teams(db))]))
      .execute(),
  ]);
  return { spaces, collections };
}

/** Team grants on a target, with the team's counters, by team id. */
export function listTeamGrants(
  db: Executor,
  target: GrantTarget,
  viewerId: string,
  after: string[] | undefined,
  take: number,
) {
  const t = table(target);
  let q = db
    .selectFrom(`${t} as g`)
    .innerJoin('teams', 'teams.id', 'g.team_id')
    .select([
      'g.role as grant_role',
      'teams.id',
      'teams.organization_id',
      'teams.title',
      'teams.created_at',
      'teams.updated_at',
      sql<number>`(select count(*) from team_members tm where tm.team_id = teams.id)`.as('members_count'),
      teamSpacesCount.as('spaces_count'),
      sql<
        string | null
      >`(select tm.role from team_members tm where tm.team_id = teams.id and tm.user_id = ${viewerId})`.as(
        'viewer_role',
      ),
    ])
    .where(`g.${column(target)}`, '=', target.id)
    .orderBy('teams.id')
    .limit(take);
  if (after) q = q.where('teams.id', '>', after[0]!);
  return q.execute();
}

export async function countTeamGrants(db: Executor, target: GrantTarget): Promise<number> {
  const r = await db
    .selectFrom(table(target))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(column(target), '=', target.id)
    .where('team_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** User grants on a target, with the user, by user id. */
export function listUserGrants(db: Executor, target: GrantTarget, after: string[] | undefined, take: number) {
  const t = table(target);
  let q = db
    .selectFrom(`${t} as g`)
    .innerJoin('users', 'users.id', 'g.user_id')
    .select(['g.role as grant_role', 'users.id', 'users.display_name', 'users.email', 'users.photo_url'])
    .where(`g.${column(target)}`, '=', target.id)
    .orderBy('users.id')
    .limit(take);
  if (after) q = q.where('users.id', '>', after[0]!);
  return q.execute();
}

export async function countUserGrants(db: Executor, target: GrantTarget): Promise<number> {
  const r = await db
    .selectFrom(table(target))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(column(target), '=', target.id)
    .where('user_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Removes the user's own grants in the organization (when they leave it). */
export async function removeUserGrants(db: Executor, organizationId: string, userId: string): Promise<void> {
  for (const t of ['space_grants', 'collection_grants'] as const) {
    await db.deleteFrom(t).where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
  }
}

/**
 * Drops every grant on these collections and on the spaces inside them, or on one space: they move to another
 * organization, whose people and teams differ.
 */
export async function removeGrantsOn(db: Executor, kind: 'space' | 'collection', ids: string[]): Promise<void> {
  if (!ids.length) return;
  if (kind === 'space') {
    await db.deleteFrom('space_grants').where('space_id', 'in', ids).execute();
    return;
  }
  await db.deleteFrom('collection_grants').where('collection_id', 'in', ids).execute();
  await db
    .deleteFrom('space_grants')
    .where('space_id', 'in', (eb) => eb.selectFrom('spaces').select('spaces.id').where('spaces.parent_id', 'in', ids))
    .execute();
}

/**
 * Live spaces granted to the user directly or through a team, by space id (the member-spaces list).
 */
function grantedSpacesQuery(db: Executor, organizationId: string, userId: string) {
  return db
    .selectFrom('spaces')
    .where('spaces.organization_id', '=', organizationId)
    .where('spaces.deleted_at', 'is', null)
    .where((eb) =>
      eb(
        'spaces.id',
        'in',
        eb
          .selectFrom('space_grants')
          .select('space_id')
          .where('organization_id', '=', organizationId)
          .where((w) =>
            w.or([
              w('user_id', '=', userId),
              w(
                'team_id',
                'in',
                w
                  .selectFrom('team_members')
                  .select('team_id')
                  .where('organization_id', '=', organizationId)
                  .where('user_id', '=', userId),
              ),
            ]),
          ),
      ),
    );
}

export function listGrantedSpaces(
  db: Executor,
  organizationId: string,
  userId: string,
  order: 'asc' | 'desc',
  after: string[] | undefined,
  take: number,
) {
  let q = grantedSpacesQuery(db, organizationId, userId).selectAll('spaces').orderBy('spaces.id', order).limit(take);
  if (after) q = q.where('spaces.id', order === 'desc' ? '<' : '>', after[0]!);
  return q.execute();
}

export async function countGrantedSpaces(db: Executor, organizationId: string, userId: string): Promise<number> {
  const r = await grantedSpacesQuery(db, organizationId, userId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** A grant that applies to a user on an item: on the space itself or on a collection containing it. */
export interface GrantOnItem {
  role: string;
  on: 'space' | 'collection';
  target_id: string;
  /** The team it was given to, null when given to the user. */
  team_id: string | null;
}

/**
 * Grants given to the user (directly or through a team) on one space and on one collection with every
 * collection containing it: one query.
 */
export async function grantsOnItem(
  db: Executor,
  organizationId: string,
  userId: string,
  item: { spaceId: string | null; collectionId: string | null },
): Promise<GrantOnItem[]> {
  const result = await sql<GrantOnItem>`
    with recursive chain as (
      select c.id, c.parent_id, 0 as depth from collections c where c.id = ${item.collectionId}
      union all
      select p.id, p.parent_id, chain.depth + 1 from collections p join chain on p.id = chain.parent_id
      where chain.depth < 100
    ), mine as (
      select tm.team_id from team_members tm where tm.organization_id = ${organizationId} and tm.user_id = ${userId}
    )
    select g.role, 'space' as ${sql.ref('on')}, g.space_id as target_id, g.team_id from space_grants g
      where g.space_id = ${item.spaceId} and (g.user_id = ${userId} or g.team_id in (select team_id from mine))
    union all
    select g.role, 'collection' as ${sql.ref('on')}, g.collection_id as target_id, g.team_id from collection_grants g
      where g.collection_id in (select id from chain)
        and (g.user_id = ${userId} or g.team_id in (select team_id from mine))`.execute(db);
  return result.rows;
}
