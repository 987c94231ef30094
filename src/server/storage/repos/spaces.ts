import { sql, type ExpressionBuilder } from 'kysely';
import type { Executor } from '../db.js';
import type { Database, SpacesTable, RevisionsTable, MembersTable } from '../schema.js';

export type SpaceRow = SpacesTable;

export function findSpace(db: Executor, id: string) {
  return db.selectFrom('spaces').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertSpace(db: Executor, row: SpaceRow): Promise<void> {
  await db.insertInto('spaces').values(row).execute();
}

export async function updateSpace(db: Executor, id: string, patch: Partial<SpaceRow>): Promise<void> {
  await db.updateTable('spaces').set(patch).where('id', '=', id).execute();
}

export async function insertRevision(db: Executor, row: RevisionsTable): Promise<void> {
  await db.insertInto('revisions').values(row).execute();
}

export function findRevision(db: Executor, id: string): Promise<RevisionsTable | undefined> {
  return db.selectFrom('revisions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Which spaces a non-admin caller may see, expressed in SQL so that lists stay keyset-paginated:
 * an explicit default level that is a role; or `inherit` from a parent whose level is a role (or from the
 * organization role at the root); or spaces they created when they hold the create role.
 */
export interface SpaceVisibilityFilter {
  /** Explicit default levels apply to members, not to guests. */
  memberDefaults: boolean;
  orgRoleVisible: boolean;
  visibleInheritParents: string[];
  createdBy?: string;
  /** Spaces granted to this user in this organization, directly or through a team. */
  grantedTo?: { userId: string; organizationId: string };
  /** Collections with a grant on them or on a collection containing them: all their spaces are visible. */
  grantedParents?: string[];
}

export interface SpaceListFilter {
  organizationId?: string;
  parentId?: string;
  deleted: boolean;
  /** Spaces deleted before this instant are past the trash window and are not listed. */
  deletedAfter?: string;
  visibility?: SpaceVisibilityFilter;
}

function filtered(db: Executor, f: SpaceListFilter) {
  let q = db.selectFrom('spaces');
  if (f.organizationId) q = q.where('organization_id', '=', f.organizationId);
  if (f.parentId) q = q.where('parent_id', '=', f.parentId);
  q = f.deleted ? q.where('deleted_at', 'is not', null) : q.where('deleted_at', 'is', null);
  if (f.deletedAfter) q = q.where('deleted_at', '>=', f.deletedAfter);
  const v = f.visibility;
  if (v) {
    q = q.where((eb: ExpressionBuilder<Database, 'spaces'>) => {
      const ors = [];
      if (v.memberDefaults)
        ors.push(eb.and([eb('default_level', 'is not', null), eb('default_level', '!=', 'inherit')]));
      if (v.orgRoleVisible) ors.push(eb.and([eb('default_level', '=', 'inherit'), eb('parent_id', 'is', null)]));
      if (v.visibleInheritParents.length) {
        ors.push(eb.and([eb('default_level', '=', 'inherit'), eb('parent_id', 'in', v.visibleInheritParents)]));
      }
      if (v.createdBy) ors.push(eb('created_by', '=', v.createdBy));
      if (v.grantedParents?.length) ors.push(eb('parent_id', 'in', v.grantedParents));
      if (v.grantedTo) {
        const { userId, organizationId } = v.grantedTo;
        ors.push(
          eb(
            'id',
            'in',
            eb
              .selectFrom('space_grants')
              .select('space_grants.space_id')
              .where('space_grants.organization_id', '=', organizationId)
              .where((w) =>
                w.or([
                  w('space_grants.user_id', '=', userId),
                  w(
                    'space_grants.team_id',
                    'in',
                    w
                      .selectFrom('team_members')
                      .select('team_members.team_id')
                      .where('team_members.organization_id', '=', organizationId)
                      .where('team_members.user_id', '=', userId),
                  ),
                ]),
              ),
          ),
        );
      }
      return ors.length ? eb.or(ors) : sql<boolean>`1 = 0`;
    });
  }
  return q;
}

/** The ids of the spaces a filter lists, as a subquery (search joins it to its matches in one query). */
export function spaceIdsQuery(db: Executor, f: SpaceListFilter) {
  return filtered(db, f).select('spaces.id');
}

export function listSpaces(db: Executor, f: SpaceListFilter, after: string[] | undefined, take: number) {
  let q = filtered(db, f).selectAll().orderBy('position').orderBy('id').limit(take);
  if (after) q = q.where((eb) => eb(eb.refTuple('position', 'id'), '>', eb.tuple(after[0]!, after[1]!)));
  return q.execute();
}

export async function countSpaces(db: Executor, f: SpaceListFilter): Promise<number> {
  const r = await filtered(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Every space (live or in the trash) directly in one of these collections, as far as levels need it. */
export function spacesInCollections(db: Executor, collectionIds: string[]) {
  if (!collectionIds.length) return Promise.resolve([]);
  return db
    .selectFrom('spaces')
    .select(['id', 'title', 'parent_id', 'default_level', 'created_by', 'deleted_at'])
    .where('parent_id', 'in', collectionIds)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/**
 * Spaces of the collection (live or already in the trash: they can be restored) that inherit their default level
 * get `level` as their own.
 */
export async function freezeInheritedLevel(db: Executor, collectionId: string, level: string | null): Promise<void> {
  await db
    .updateTable('spaces')
    .set({ default_level: level })
    .where('parent_id', '=', collectionId)
    .where('default_level', '=', 'inherit')
    .execute();
}

/** Moves every live space of these collections to the trash. */
export async function trashSpacesIn(db: Executor, collectionIds: string[], at: string): Promise<void> {
  if (!collectionIds.length) return;
  await db
    .updateTable('spaces')
    .set({ deleted_at: at, updated_at: at })
    .where('parent_id', 'in', collectionIds)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Removes for good the spaces deleted before `before`; returns how many. */
export async function purgeSpacesDeletedBefore(db: Executor, before: string): Promise<number> {
  const r = await db.deleteFrom('spaces').where('deleted_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** A space, the caller's membership of its organization (null when they are not in it), and its enforced SSO. */
export interface SpaceForUser {
  row: SpaceRow;
  membership: MembersTable | null;
  /** The organization enforces SSO on all its members. */
  orgSso: boolean;
}

/** A row of spaceForUserColumns. */
export type SpaceForUserColumns = SpaceRow & {
  member_user_id: string | null;
  member_role: string | null;
  member_disabled: number | null;
  member_joined_at: string | null;
  member_last_seen_at: string | null;
  member_sso: number | null;
  org_sso: number;
};

/**
 * What findSpaceForUser reads, over `s` (spaces), `o` (organizations) and `m` (members): shared with the token
 * look-up that reads the same in its statement (findTokenWithSpace), so the two cannot drift apart.
 */
export const spaceForUserColumns = sql.raw(`s.*, m.user_id as member_user_id, m.role as member_role,
  m.disabled as member_disabled, m.joined_at as member_joined_at, m.last_seen_at as member_last_seen_at,
  m.sso as member_sso, o.sso as org_sso`);

/**
 * A row of spaceForUserColumns taken apart field by field into the space and the membership. A rest spread
 * (`{ member_role, ...row }`) of a row this wide cost more than the query on this hot path (measured before SQLite
 * rows came from compiled constructors, see storage/db.ts; listing the fields stays the cheaper way).
 */
export function spaceForUserOf(r: SpaceForUserColumns): SpaceForUser {
  return {
    row: {
      id: r.id,
      organization_id: r.organization_id,
      parent_id: r.parent_id,
      title: r.title,
      emoji: r.emoji,
      visibility: r.visibility,
      edit_mode: r.edit_mode,
      default_level: r.default_level,
      position: r.position,
      revision_id: r.revision_id,
      comments: r.comments,
      threads_version: r.threads_version,
      change_requests: r.change_requests,
      change_requests_open: r.change_requests_open,
      change_requests_draft: r.change_requests_draft,
      created_by: r.created_by,
      created_at: r.created_at,
      updated_at: r.updated_at,
      deleted_at: r.deleted_at,
    },
    membership:
      r.member_user_id === null
        ? null
        : {
            organization_id: r.organization_id,
            user_id: r.member_user_id,
            role: r.member_role,
            disabled: Number(r.member_disabled ?? 0),
            joined_at: r.member_joined_at ?? '',
            last_seen_at: r.member_last_seen_at,
            sso: Number(r.member_sso ?? 0),
          },
    orgSso: Boolean(Number(r.org_sso)),
  };
}

/**
 * The space and the caller's membership of its organization, in one query: the hot path of every space
 * route. Written as SQL text because building it with the query builder cost more than running it.
 */
export async function findSpaceForUser(db: Executor, id: string, userId: string): Promise<SpaceForUser | undefined> {
  const result = await sql<SpaceForUserColumns>`select ${spaceForUserColumns}
    from spaces s join organizations o on o.id = s.organization_id
    left join members m on m.organization_id = s.organization_id and m.user_id = ${userId}
    where s.id = ${id}`.execute(db);
  const row = result.rows[0];
  return row && spaceForUserOf(row);
}

/**
 * The revisions of a space's own history, newest first: the first one (made with the space, in no change request)
 * and every merge. Revisions made inside change requests are left out. Keyset on the id (ids sort by creation).
 */
export function listHistoryRevisions(db: Executor, spaceId: string, before: string | undefined, take: number) {
  let q = db
    .selectFrom('revisions as r')
    .leftJoin('change_requests as cr', 'cr.id', 'r.change_request_id')
    .select([
      'r.id',
      'r.type',
      'r.parents',
      'r.created_at',
      'r.created_by',
      'r.change_request_id',
      'cr.number as cr_number',
      'cr.subject as cr_subject',
    ])
    .where('r.space_id', '=', spaceId)
    .where((eb) => eb.or([eb('r.type', '=', 'merge'), eb('r.change_request_id', 'is', null)]));
  if (before !== undefined) q = q.where('r.id', '<', before);
  return q.orderBy('r.id', 'desc').limit(take).execute();
}

export async function countHistoryRevisions(db: Executor, spaceId: string): Promise<number> {
  const row = await db
    .selectFrom('revisions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('space_id', '=', spaceId)
    .where((eb) => eb.or([eb('type', '=', 'merge'), eb('change_request_id', 'is', null)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
