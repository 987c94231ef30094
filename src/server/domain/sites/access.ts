import type { ServiceContext } from '../context.js';
import type { Executor } from '../../storage/db.js';
import * as repo from '../../storage/repos/sites.js';
import type { SiteRow } from '../../storage/repos/sites.js';
import type { SpaceRow } from '../../storage/repos/spaces.js';
import { allOrgCollections } from '../../storage/repos/collections.js';
import { lockOrganization } from '../../storage/repos/organizations.js';
import {
  integrationOrgAccess,
  loadOrgLevels,
  requireOrgAccess,
  requireOrgRole,
  type OrgAccess,
  type OrgLevels,
} from '../permissions/resolver.js';
import { ForbiddenError, InvalidError, NotFoundError } from '../errors.js';
import { sitePolicy, type SiteAction } from './policy.js';
import { readStructure } from './model.js';
import type { StructureView } from '../../presenters/site.js';
import { publishedSiteUrl } from '../../lib/urls.js';
import { spacePolicy } from '../spaces/policy.js';
import { integrationSiteRole, integrationSpaceLevel, type IntegrationActor } from '../integrations/tokens.js';

/**
 * Who may do what with sites is the site policy's (policy.ts): the organization role decides. Outsiders get 404,
 * guests and too-low roles 403.
 *
 * A site space shows its space (title, metadata): the caller sees a site space only when they can read its space,
 * by the same rules as `GET /v1/spaces/{id}` (and the space is in the site's organization). Others are left out of
 * every answer (lists and their counts, sections, the structure, the site's `siteSpaces` count), and an operation
 * naming one answers as if it did not exist; managers may still delete one, which shows nothing.
 */
export interface LoadedSite {
  access: OrgAccess;
  site: SiteRow;
}

/**
 * The site (404 when it is not in the organization) once the site policy has let the caller do `may`. With `lock`,
 * the organization's row lock is taken first, so structural writes of one organization run one at a time and
 * invariants such as "exactly one default" hold under concurrency.
 */
export async function loadSite(
  db: Executor,
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  may: SiteAction,
  action: string,
  lock = false,
): Promise<LoadedSite> {
  if (ctx.actor.integration)
    return loadSiteForIntegration(db, ctx.actor.integration, organizationId, siteId, may, action);
  const access = await requireOrgAccess(db, ctx.actor, organizationId);
  requireOrgRole(access, sitePolicy.needs('view'), 'see its sites');
  if (lock) await lockOrganization(db, organizationId);
  const site = await repo.findSite(db, organizationId, siteId);
  if (!site) throw new NotFoundError('Site not found');
  requireOrgRole(access, sitePolicy.needs(may), action);
  return { access, site };
}

/**
 * A site for an installation's token: with the role its site scopes give on the sites its installation reaches
 * (integrations/tokens.ts; its routes say which scope each needs), as a member of nothing otherwise (404).
 */
async function loadSiteForIntegration(
  db: Executor,
  actor: IntegrationActor,
  organizationId: string,
  siteId: string,
  may: SiteAction,
  action: string,
): Promise<LoadedSite> {
  const site = await repo.findSite(db, organizationId, siteId);
  const role = site ? await integrationSiteRole(db, actor, site) : null;
  // (orgLevels and the counts below read no membership for an integration.)
  const access = integrationOrgAccess(actor, organizationId, role, 'Site not found');
  requireOrgRole(access, sitePolicy.needs(may), action);
  return { access, site: site! };
}

/** Levels of the caller on the organization's spaces, grants included (for the `space` of site spaces). */
export function orgLevels(db: Executor, ctx: ServiceContext, access: OrgAccess): Promise<OrgLevels> {
  // An integration's organization access is no membership (integrationOrgAccess): levels read from it would ignore
  // the spaces chosen for its installation. The routes it may call never ask; one that would is refused.
  if (ctx.actor.integration) {
    return Promise.reject(new ForbiddenError("An integration's token cannot read the site's spaces here"));
  }
  return loadOrgLevels(db, access, ctx.actor, () => allOrgCollections(db, access.organizationId));
}

type LeveledSpace = Pick<SpaceRow, 'id' | 'organization_id' | 'parent_id' | 'default_level' | 'created_by'>;

/** Whether the caller sees a site space whose space is `space`: it is in the organization and they can read it. */
export function canSeeSiteSpace(levels: OrgLevels, space: LeveledSpace | undefined): space is LeveledSpace {
  return (
    space !== undefined &&
    space.organization_id === levels.access.organizationId &&
    spacePolicy.can(levels.space(space), 'view')
  );
}

/** Ids of the site spaces of `structure` that the caller does not see. */
export async function hiddenSiteSpaces(
  db: Executor,
  ctx: ServiceContext,
  access: OrgAccess,
  structure: { siteSpaces: Array<{ id: string; space_id: string }> },
): Promise<Set<string>> {
  const [spaces, l] = await Promise.all([
    repo.spacesByIds(db, [...new Set(structure.siteSpaces.map((s) => s.space_id))]),
    orgLevels(db, ctx, access),
  ]);
  const byId = new Map(spaces.map((s) => [s.id, s]));
  return new Set(structure.siteSpaces.filter((ss) => !canSeeSiteSpace(l, byId.get(ss.space_id))).map((ss) => ss.id));
}

/** How many site spaces of each site the caller sees (the `siteSpaces` of a site). */
export async function visibleSiteSpaceCounts(
  db: Executor,
  ctx: ServiceContext,
  access: OrgAccess,
  siteIds: string[],
): Promise<Map<string, number>> {
  if (siteIds.length === 0) return new Map();
  const counts = new Map<string, number>();
  const integration = ctx.actor.integration;
  if (integration) {
    // An integration sees the site spaces of the spaces its installation reaches.
    for (const t of await repo.siteSpaceTargets(db, siteIds)) {
      if (await integrationSpaceLevel(db, integration, t)) counts.set(t.site_id, (counts.get(t.site_id) ?? 0) + 1);
    }
    return counts;
  }
  const [targets, levels] = await Promise.all([repo.siteSpaceTargets(db, siteIds), orgLevels(db, ctx, access)]);
  for (const t of targets) {
    if (canSeeSiteSpace(levels, t)) counts.set(t.site_id, (counts.get(t.site_id) ?? 0) + 1);
  }
  return counts;
}

/**
 * The root of the published site for URLs in answers: with `shareKey` (share-link sites), the root as seen
 * through that share link, which must be active.
 */
export async function publishedRoot(
  db: Executor,
  ctx: ServiceContext,
  site: SiteRow,
  shareKey: string | undefined,
): Promise<string | undefined> {
  if (site.published !== 1) return undefined;
  if (shareKey === undefined || site.visibility !== 'share-link') return publishedSiteUrl(ctx.urls.base, site.id);
  if (!(await repo.findActiveShareLinkByKey(db, site.id, shareKey))) {
    throw new InvalidError('shareKey', 'no active share link of this site has this key');
  }
  return publishedSiteUrl(ctx.urls.base, site.id, shareKey);
}

/** Everything needed to present the site's structure to the caller. */
export async function structureView(
  db: Executor,
  ctx: ServiceContext,
  loaded: LoadedSite,
  shareKey?: string,
): Promise<StructureView> {
  const { site, access } = loaded;
  const structure = await readStructure(db, site.id);
  const spaceIds = [...new Set(structure.siteSpaces.map((s) => s.space_id))];
  const [spaces, levels, root] = await Promise.all([
    repo.spacesByIds(db, spaceIds),
    orgLevels(db, ctx, access),
    publishedRoot(db, ctx, site, shareKey),
  ]);
  const byId = new Map(spaces.map((s): [string, SpaceRow] => [s.id, s]));
  return {
    urls: ctx.urls,
    site,
    structure,
    spaces: byId,
    spaceLevel: (space) => levels.space(space),
    visible: (ss) => canSeeSiteSpace(levels, byId.get(ss.space_id)),
    publishedRoot: root,
  };
}

/**
 * A space that can be put on a site: in the organization, not in the trash, and visible to the caller (400 naming
 * `field` otherwise, without telling whether a hidden space exists).
 */
export async function requireSiteableSpace(
  db: Executor,
  ctx: ServiceContext,
  access: OrgAccess,
  spaceId: string,
  field: string,
  levels?: OrgLevels,
): Promise<SpaceRow> {
  const [space] = await repo.spacesByIds(db, [spaceId]);
  const l = levels ?? (await orgLevels(db, ctx, access));
  if (!space || !canSeeSiteSpace(l, space)) {
    throw new InvalidError(field, 'no such space in this organization');
  }
  if (space.deleted_at) throw new InvalidError(field, 'the space is in the trash');
  return space;
}
