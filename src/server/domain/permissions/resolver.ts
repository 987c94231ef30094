import type { Role } from '../../../shared/contract/common.js';
import type { Executor } from '../../storage/db.js';
import { findMembershipForAccess, type MembershipRow } from '../../storage/repos/members.js';
import { providerOrganization } from '../../storage/repos/saml.js';
import { collectionChain, findCollection, type CollectionRow } from '../../storage/repos/collections.js';
import { grantsOnItem, grantsOfUser, type GrantOnItem } from '../../storage/repos/grants.js';
import { NotFoundError, ForbiddenError, InvalidError, SsoRequiredError } from '../errors.js';
import { asRole, atLeast, maxRole } from './roles.js';
import { collectionPolicy } from '../collections/policy.js';
import { organizationPolicy } from '../organizations/policy.js';
import { spacePolicy } from '../spaces/policy.js';
import { integrationSpaceLevel, type IntegrationActor } from '../integrations/tokens.js';

/**
 * The one permission resolver every route uses.
 *
 * The level a user has on a collection or a space:
 *  1. Not a member of the organization (or a disabled member): no access at all; everything answers 404. A
 *     member of an organization that enforces SSO (or a member marked SSO), other than an admin, reaches it only
 *     with a credential that came through one of the organization's identity providers (403 `sso-required`).
 *  2. Organization admins: `admin` on everything in the organization.
 *  3. Guests (member role null): no access through default levels (explicit grants come with teams).
 *  4. Other members: the first `defaultLevel` that is not `inherit`, walking up from the item through its
 *     parent collections; when every level says `inherit`, the member's organization role. A `null` default
 *     level means "no access by default", even for members whose organization role is higher.
 *  5. A member with the `create` role or higher is `admin` of the collections and spaces they created.
 *  6. Explicit grants: a role given on a space or a collection to the user, or to a team they are in. A grant
 *     on a collection covers everything inside it, at any depth. Grants only raise: the level is the highest of
 *     the result of rules 3 to 5 and of every grant on the item and on the collections containing it. So a
 *     grant shows an item to a guest, and shows a space that a `null` default level hides from other members.
 *  7. What a collection holds is not its creator's: an operation on a collection that moves, re-levels or deletes
 *     the content inside it needs the operation's level on every item it affects, not only on the collection.
 *     Moving it to another parent, transferring it to another organization and deleting it need `admin` on every
 *     collection and space inside it, at any depth (spaces in the trash included: they go with it). Changing its
 *     `defaultLevel` needs `admin` on every item inside whose level comes from it: the `inherit` collections and
 *     spaces reached from it through `inherit` collections only. Each level is the one rules 1 to 6 give, so
 *     organization admins, and whoever holds `admin` through a grant on the collection, pass. Otherwise the answer
 *     is 403 naming the first item in the way (by id only when the caller cannot see it). Reordering a collection
 *     among its siblings, or renaming it, affects nothing inside it and needs `admin` on the collection alone.
 */
export interface Actor {
  userId: string;
  /**
   * How the caller's credential signed in: null after a password sign-in, else the SAML provider it came
   * through. Set for the caller of a request (enforced SSO is checked against it); left out where the levels of
   * another member are computed.
   */
  ssoProviderId?: string | null;
  /**
   * Set when the caller is an integration's script with one of its tokens (integrations/tokens.ts): then `userId`
   * is no account's, it is a member of nothing, and its only level is on the spaces of its installation.
   */
  integration?: IntegrationActor;
}

export interface OrgAccess {
  organizationId: string;
  membership: MembershipRow;
  role: Role | null;
}

export async function orgAccess(db: Executor, actor: Actor, organizationId: string): Promise<OrgAccess | null> {
  // An integration is a member of no organization (its reach on spaces is integrationSpaceLevel's).
  if (actor.integration) return null;
  const found = await findMembershipForAccess(db, organizationId, actor.userId);
  if (!found || found.disabled) return null;
  const { org_sso, ...membership } = found;
  const role = asRole(membership.role);
  await enforceSso(db, actor, organizationId, role, Boolean(org_sso || membership.sso));
  return { organizationId, membership, role };
}

/**
 * Enforced SSO (the organization's `sso`, or the member's): the organization is reached only with a credential
 * that came through one of its own providers (403 `sso-required`). Admins keep any credential, so that a broken
 * identity provider never locks everyone out. It governs this organization only. Every path that builds an
 * OrgAccess for the caller goes through here.
 */
export async function enforceSso(
  db: Executor,
  actor: Actor,
  organizationId: string,
  role: Role | null,
  enforced: boolean,
): Promise<void> {
  if (actor.ssoProviderId === undefined || !enforced || role === 'admin') return;
  const via = actor.ssoProviderId ? await providerOrganization(db, actor.ssoProviderId) : undefined;
  if (via !== organizationId) throw new SsoRequiredError(organizationId);
}

/** The caller's access to an organization, or 404 when they are not in it. */
export async function requireOrgAccess(db: Executor, actor: Actor, organizationId: string): Promise<OrgAccess> {
  const access = await orgAccess(db, actor, organizationId);
  if (!access) throw new NotFoundError('Organization not found');
  return access;
}

/**
 * An installation token's access to an organization-wide resource its scopes name (OpenAPI specifications, a site):
 * `role` as the policies read it, in the installing organization only (404 elsewhere, or without a role). Not a
 * membership: nothing that reads memberships or grants is asked with it.
 */
export function integrationOrgAccess(
  actor: IntegrationActor,
  organizationId: string,
  role: Role | null,
  notFound = 'Organization not found',
): OrgAccess {
  if (actor.installationId === null || actor.organizationId !== organizationId || role === null) {
    throw new NotFoundError(notFound);
  }
  return {
    organizationId,
    membership: { organization_id: organizationId, user_id: '', role, disabled: 0, joined_at: '', last_seen_at: null },
    role,
  };
}

export function requireOrgRole(access: OrgAccess, needed: Role, action: string): void {
  if (!atLeast(access.role, needed)) {
    throw new ForbiddenError(`You need the ${needed} role in this organization to ${action}`);
  }
}

interface ContentItem {
  default_level: string | null;
  created_by: string;
}

/**
 * Why a user has a level: the rules of the resolver that gave them something (or took it away), as the resolver
 * met them. `at` is an index into the chain the level was computed from (the item, then its collections). The
 * "why can X see this?" explanation (explain.ts) is built from these, so it can never disagree with the checks.
 */
export type LevelReason =
  | { rule: 'no-membership'; role: null }
  | { rule: 'organization-admin'; role: 'admin' }
  | { rule: 'guest'; role: null }
  | { rule: 'organization-role'; role: Role }
  | { rule: 'default-level'; role: Role | null; at: number }
  | { rule: 'creator'; role: 'admin' }
  | { rule: 'grant'; role: Role; on: 'space' | 'collection'; targetId: string; teamId: string | null };

export interface ExplainedLevel {
  level: Role | null;
  reasons: LevelReason[];
}

/** The answers of rules 1 and 2, the same every time (on the path of every request: allocated once). */
const NO_MEMBERSHIP: ExplainedLevel = Object.freeze({
  level: null,
  reasons: Object.freeze([{ rule: 'no-membership', role: null }]) as LevelReason[],
});
const ORGANIZATION_ADMIN: ExplainedLevel = Object.freeze({
  level: 'admin',
  reasons: Object.freeze([{ rule: 'organization-admin', role: 'admin' }]) as LevelReason[],
});

/** Rules 1 to 5 for an item and its ancestors (nearest first), with the rules that decided. */
export function baseLevel(access: OrgAccess | null, actor: Actor, chain: ContentItem[]): ExplainedLevel {
  if (!access) return NO_MEMBERSHIP;
  if (access.role === 'admin') return ORGANIZATION_ADMIN;
  if (access.role === null) return { level: null, reasons: [{ rule: 'guest', role: null }] };
  let reason: LevelReason = { rule: 'organization-role', role: access.role };
  for (let at = 0; at < chain.length; at++) {
    const item = chain[at]!;
    if (item.default_level === 'inherit') continue;
    reason = { rule: 'default-level', role: asRole(item.default_level), at };
    break;
  }
  const created = chain[0]?.created_by === actor.userId && organizationPolicy.can(access.role, 'createContent');
  return created
    ? { level: 'admin', reasons: [{ rule: 'creator', role: 'admin' }, reason] }
    : { level: reason.role, reasons: [reason] };
}

/** Level from an item and its ancestors (nearest first), following the rules above. */
export function levelFor(access: OrgAccess | null, actor: Actor, chain: ContentItem[]): Role | null {
  return baseLevel(access, actor, chain).level;
}

/** Rule 6 on top of rules 1 to 5: the highest of the base level and of every grant that applies. */
function withGrants(base: ExplainedLevel, granted: GrantOnItem[]): ExplainedLevel {
  let level = base.level;
  const reasons = [...base.reasons];
  for (const grant of granted) {
    const role = asRole(grant.role);
    if (!role) continue;
    level = maxRole(level, role);
    reasons.push({ rule: 'grant', role, on: grant.on, targetId: grant.target_id, teamId: grant.team_id });
  }
  return { level, reasons };
}

/** The highest of a set of granted roles (null when there is none). */
export function highestGrant(roles: Iterable<string | null | undefined>): Role | null {
  let best: Role | null = null;
  for (const role of roles) best = maxRole(best, asRole(role ?? null));
  return best;
}

/** Level of the caller on a collection (given with its ancestors, nearest first), with the rules that gave it. */
export async function collectionLevel(
  db: Executor,
  actor: Actor,
  collection: { id: string; organization_id: string },
  access?: OrgAccess | null,
): Promise<ExplainedLevel & { access: OrgAccess | null; chain: CollectionRow[] }> {
  const a = access !== undefined ? access : await orgAccess(db, actor, collection.organization_id);
  if (!a) return { ...NO_MEMBERSHIP, access: null, chain: [] };
  const chain = await collectionChain(db, collection.id);
  const base = baseLevel(a, actor, chain);
  // Nothing is above admin: the grants need not be read.
  if (base.level === 'admin') return { ...base, access: a, chain };
  const granted = await grantsOnItem(db, a.organizationId, actor.userId, {
    spaceId: null,
    collectionId: collection.id,
  });
  return { ...withGrants(base, granted), access: a, chain };
}

/**
 * Level of the caller on a space: the space's own default level, then its collections', with the rules that gave
 * it. `chain` is what the default levels were read from: the space, then its collections when it inherits.
 */
export async function spaceLevel(
  db: Executor,
  actor: Actor,
  space: ContentItem & { id: string; organization_id: string; parent_id: string | null },
  access?: OrgAccess | null,
): Promise<ExplainedLevel & { access: OrgAccess | null; chain: ContentItem[] }> {
  if (actor.integration) {
    return { level: await integrationSpaceLevel(db, actor.integration, space), reasons: [], access: null, chain: [] };
  }
  const a = access !== undefined ? access : await orgAccess(db, actor, space.organization_id);
  if (!a) return { ...NO_MEMBERSHIP, access: null, chain: [] };
  if (a.role === 'admin') return { ...ORGANIZATION_ADMIN, access: a, chain: [space] };
  const chain: ContentItem[] = [space];
  if (space.default_level === 'inherit' && space.parent_id) chain.push(...(await collectionChain(db, space.parent_id)));
  const base = baseLevel(a, actor, chain);
  if (base.level === 'admin') return { ...base, access: a, chain };
  const granted = await grantsOnItem(db, a.organizationId, actor.userId, {
    spaceId: space.id,
    collectionId: space.parent_id,
  });
  return { ...withGrants(base, granted), access: a, chain };
}

/** Throws 404 when the caller cannot see the item at all, 403 when they see it but need more. */
export function requireLevel(level: Role | null, needed: Role, what: string, action: string): void {
  if (!atLeast(level, 'read')) throw new NotFoundError(`${what} not found`);
  if (!atLeast(level, needed))
    throw new ForbiddenError(`You need the ${needed} level on this ${what.toLowerCase()} to ${action}`);
}

type CollectionLite = { id: string; parent_id: string | null; default_level: string | null; created_by: string };

/** The caller's grants in one organization (their own and their teams'), by target id: the highest role. */
export interface UserGrants {
  spaces: Map<string, Role>;
  collections: Map<string, Role>;
}

const NO_GRANTS: UserGrants = { spaces: new Map(), collections: new Map() };

function byTarget(rows: Array<{ target: string; role: string }>): Map<string, Role> {
  const out = new Map<string, Role>();
  for (const row of rows) {
    const role = maxRole(out.get(row.target) ?? null, asRole(row.role));
    if (role) out.set(row.target, role);
  }
  return out;
}

/** Loads the user's grants in the organization (admins need none: they are admin everywhere). */
export async function loadUserGrants(db: Executor, access: OrgAccess, actor: Actor): Promise<UserGrants> {
  if (access.role === 'admin') return NO_GRANTS;
  const { spaces, collections } = await grantsOfUser(db, access.organizationId, actor.userId);
  return { spaces: byTarget(spaces), collections: byTarget(collections) };
}

/** OrgLevels with every collection of the organization and the caller's grants loaded. */
export async function loadOrgLevels(
  db: Executor,
  access: OrgAccess,
  actor: Actor,
  collections: () => Promise<CollectionLite[]>,
): Promise<OrgLevels> {
  if (access.role === 'admin') return new OrgLevels(access, actor, []);
  const [all, grants] = await Promise.all([collections(), loadUserGrants(db, access, actor)]);
  return new OrgLevels(access, actor, all, grants);
}

/**
 * Levels of many items of one organization at once (for lists): every collection of the organization is read
 * once, with the caller's grants, and each item's chain is walked in memory.
 */
export class OrgLevels {
  private readonly byId: Map<string, CollectionLite>;
  private readonly memo = new Map<string, Role | null>();

  constructor(
    readonly access: OrgAccess,
    private readonly actor: Actor,
    collections: CollectionLite[],
    private readonly grants: UserGrants = NO_GRANTS,
  ) {
    this.byId = new Map(collections.map((c) => [c.id, c]));
  }

  /** The highest grant on a collection and the collections containing it. */
  private chainGrant(startId: string | null): Role | null {
    if (!this.grants.collections.size) return null;
    return highestGrant(this.chain(startId).map((c) => this.grants.collections.get(c.id)));
  }

  private chain(startId: string | null): CollectionLite[] {
    const out: CollectionLite[] = [];
    let id = startId;
    while (id && out.length < 100) {
      const c = this.byId.get(id);
      if (!c) break;
      out.push(c);
      id = c.parent_id;
    }
    return out;
  }

  collection(id: string): Role | null {
    if (!this.memo.has(id)) {
      this.memo.set(id, maxRole(levelFor(this.access, this.actor, this.chain(id)), this.chainGrant(id)));
    }
    return this.memo.get(id) ?? null;
  }

  /**
   * Level that an item with `default_level: inherit` gets from `parentId` (or from the root): the parent's
   * default levels only; being the parent's creator gives nothing on what others put inside it.
   */
  inherited(parentId: string | null): Role | null {
    return levelFor(this.access, this.actor, [{ default_level: 'inherit', created_by: '' }, ...this.chain(parentId)]);
  }

  space(space: ContentItem & { id?: string; parent_id: string | null }): Role | null {
    if (this.access.role === 'admin') return 'admin';
    const level = levelFor(this.access, this.actor, [
      space,
      ...this.chain(space.default_level === 'inherit' ? space.parent_id : null),
    ]);
    const own = space.id !== undefined ? (this.grants.spaces.get(space.id) ?? null) : null;
    return maxRole(level, maxRole(own, this.chainGrant(space.parent_id)));
  }

  /** Collections whose spaces are all visible through a grant on them or on a collection containing them. */
  grantedParents(): string[] {
    if (!this.grants.collections.size) return [];
    return [...this.byId.keys()].filter((id) => this.chainGrant(id) !== null);
  }

  /** Collections the caller can see. */
  visibleCollections(): string[] {
    return [...this.byId.keys()].filter((id) => collectionPolicy.can(this.collection(id), 'view'));
  }

  /** Collection ids from which `inherit` gives at least read access. */
  visibleInheritParents(): string[] {
    return [...this.byId.keys()].filter((id) => spacePolicy.can(this.inherited(id), 'view'));
  }
}

/** An item inside a collection that an operation on the collection affects (rule 7). */
export interface ContainedItem {
  type: 'collection' | 'space';
  id: string;
  title: string;
  parent_id: string | null;
  default_level: string | null;
  created_by: string;
}

/**
 * Rule 7: the caller holds `needed` on every item, else 403 naming the first one in the way: by title and id when
 * the caller can see it, by id only when it is hidden from them (its title is not theirs to read).
 */
export function requireLevelOnContents(
  levels: OrgLevels,
  items: Iterable<ContainedItem>,
  needed: Role,
  action: string,
): void {
  for (const item of items) {
    const level = item.type === 'collection' ? levels.collection(item.id) : levels.space(item);
    if (atLeast(level, needed)) continue;
    const name = atLeast(level, 'read') ? `${item.type} "${item.title}" (${item.id})` : `${item.type} ${item.id}`;
    throw new ForbiddenError(`You need the ${needed} level on ${name} inside this collection to ${action}`);
  }
}

/**
 * The parent a new or moved item goes into (`field` names it in errors): a collection of the organization
 * that the caller sees and may create in, or the organization's top level (the create role).
 */
export async function requireCreateIn(
  db: Executor,
  actor: Actor,
  access: OrgAccess,
  parentId: string | null,
  field: string,
): Promise<void> {
  if (parentId === null) {
    requireOrgRole(access, organizationPolicy.needs('createContent'), 'create content at the top of the organization');
    return;
  }
  const parent = await findCollection(db, parentId);
  if (!parent || parent.organization_id !== access.organizationId) {
    throw new InvalidError(field, 'no such collection in this organization');
  }
  const { level } = await collectionLevel(db, actor, parent, access);
  if (!atLeast(level, 'read')) throw new InvalidError(field, 'no such collection in this organization');
  if (!collectionPolicy.can(level, 'create')) {
    throw new ForbiddenError('You need the create level on the parent collection');
  }
}
