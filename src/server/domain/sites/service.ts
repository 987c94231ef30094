import crypto from 'node:crypto';
import type { ServiceContext } from '../context.js';
import type { Role } from '../../../shared/contract/common.js';
import { transaction, type Executor } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import * as repo from '../../storage/repos/sites.js';
import type { SiteRow } from '../../storage/repos/sites.js';
import { lockOrganization } from '../../storage/repos/organizations.js';
import { keysetPage } from '../../storage/pagination.js';
import { requireOrgAccess, requireOrgRole, type OrgAccess } from '../permissions/resolver.js';
import { ConflictError, InvalidError } from '../errors.js';
import { sitePolicy } from './policy.js';
import { signPreviewGrant } from './preview.js';
import type {
  AdaptiveJsonSchema,
  CreateSiteBody,
  ListSitesQuery,
  UpdatePublishingAuthBody,
  UpdateSiteBody,
} from '../../../shared/contract/sites.js';
import {
  canSeeSiteSpace,
  hiddenSiteSpaces,
  loadSite,
  orgLevels,
  requireSiteableSpace,
  structureView,
  visibleSiteSpaceCounts,
} from './access.js';
import { defaultSection, orderedSections, readStructure, siteSpacesIn, slugify, uniquePath } from './model.js';
import { keysBetween } from './positions.js';
import { emptyAdaptiveSchema, templateConditions, validateAdaptiveSchema } from './adaptive.js';

export interface SiteResult {
  site: SiteRow;
  siteSpaces: number;
  role: Role | null;
}

/** A new random visitor signing key: 256 bits, base64url. */
export function newVisitorKey(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** The site with the number of its site spaces that the caller sees. */
async function result(db: Executor, ctx: ServiceContext, access: OrgAccess, site: SiteRow): Promise<SiteResult> {
  const counts = await visibleSiteSpaceCounts(db, ctx, access, [site.id]);
  return { site, siteSpaces: counts.get(site.id) ?? 0, role: access.role };
}

async function reload(db: Executor, site: SiteRow): Promise<SiteRow> {
  return (await repo.findSiteById(db, site.id))!;
}

export async function listSites(ctx: ServiceContext, organizationId: string, query: ListSitesQuery) {
  const access = await requireOrgAccess(ctx.db, ctx.actor, organizationId);
  requireOrgRole(access, sitePolicy.needs('view'), 'see its sites');
  if (query.space !== undefined) {
    // A space the caller cannot read is on no site, as far as they can tell.
    const [space] = await repo.spacesByIds(ctx.db, [query.space]);
    if (!canSeeSiteSpace(await orgLevels(ctx.db, ctx, access), space)) return { items: [], count: 0 };
  }
  const filter: repo.SiteListFilter = {
    organizationId,
    spaceId: query.space,
    titleContains: query.title,
    published: query.published,
    types: query.type,
  };
  const page = await keysetPage({
    page: query.page,
    limit: query.limit,
    arity: 1,
    rows: (after, take) => repo.listSites(ctx.db, filter, after, take),
    count: () => repo.countSites(ctx.db, filter),
    key: (r) => [r.id],
  });
  const counts = await visibleSiteSpaceCounts(
    ctx.db,
    ctx,
    access,
    page.items.map((s) => s.id),
  );
  return {
    ...page,
    items: page.items.map((site) => ({ site, siteSpaces: counts.get(site.id) ?? 0, role: access.role })),
  };
}

export async function createSite(ctx: ServiceContext, organizationId: string, body: CreateSiteBody) {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireOrgRole(access, sitePolicy.needs('create'), 'create sites');
    await lockOrganization(tx, organizationId);
    const levels = await orgLevels(tx, ctx, access);
    const spaces = [];
    for (const [i, spaceId] of (body.spaces ?? []).entries()) {
      spaces.push(await requireSiteableSpace(tx, ctx, access, spaceId, `spaces.${i}`, levels));
    }
    const now = nowIso();
    const site: SiteRow = {
      id: newId(),
      organization_id: organizationId,
      type: body.type ?? 'basic',
      title: body.title ?? 'Untitled site',
      visibility: body.visibility ?? 'public',
      basename: null,
      proxy: null,
      published: 0,
      adaptive_enabled: 0,
      agents_context: 'included',
      adaptive_schema: null,
      adaptive_schema_updated_at: null,
      visitor_key: newVisitorKey(),
      visitor_fallback_url: null,
      default_section_id: null,
      default_site_space_id: null,
      version: 0,
      created_by: ctx.actor.userId,
      created_at: now,
      updated_at: now,
    };
    await repo.insertSite(tx, site);
    const paths: string[] = [];
    const positions = keysBetween(null, null, spaces.length);
    for (const [i, space] of spaces.entries()) {
      const path = uniquePath(slugify(space.title, 'space'), paths);
      paths.push(path);
      await repo.insertSiteSpace(tx, {
        id: newId(),
        site_id: site.id,
        section_id: null,
        parent_key: '',
        space_id: space.id,
        path,
        condition: null,
        position: positions[i]!,
        created_at: now,
      });
    }
    return result(tx, ctx, access, site);
  });
}

export async function getSite(ctx: ServiceContext, organizationId: string, siteId: string) {
  const { site, access } = await loadSite(ctx.db, ctx, organizationId, siteId, 'view', 'see it');
  return result(ctx.db, ctx, access, site);
}

export async function updateSite(ctx: ServiceContext, organizationId: string, siteId: string, body: UpdateSiteBody) {
  return transaction(ctx.db, async (tx) => {
    const { site, access } = await loadSite(tx, ctx, organizationId, siteId, 'edit', 'change it', true);
    const patch: Partial<SiteRow> = {};
    if (body.title !== undefined) patch.title = body.title;
    if (body.visibility !== undefined) patch.visibility = body.visibility;
    if (body.basename !== undefined) patch.basename = body.basename;
    if (body.adaptiveContent !== undefined) patch.adaptive_enabled = body.adaptiveContent.enabled ? 1 : 0;
    if (body.agentsContext !== undefined) patch.agents_context = body.agentsContext;
    if (body.proxy !== undefined) patch.proxy = body.proxy;
    if (body.defaultSiteSection !== undefined || body.defaultSiteSpace !== undefined) {
      const structure = await readStructure(tx, site.id);
      if (body.defaultSiteSection !== undefined) {
        if (!structure.sections.some((s) => s.id === body.defaultSiteSection)) {
          throw new InvalidError('defaultSiteSection', 'no such section in this site');
        }
        patch.default_section_id = body.defaultSiteSection;
      }
      if (body.defaultSiteSpace !== undefined) {
        const section =
          structure.sections.length > 0
            ? defaultSection({ ...site, ...patch }, structure, orderedSections(structure))
            : undefined;
        const candidates = siteSpacesIn(structure, section?.id ?? null);
        const target = candidates.find((s) => s.id === body.defaultSiteSpace);
        if (!target || (await hiddenSiteSpaces(tx, ctx, access, { siteSpaces: [target] })).size > 0) {
          throw new InvalidError(
            'defaultSiteSpace',
            section ? 'not a site space of the default section' : 'no such site space at the root of this site',
          );
        }
        if (section) await repo.updateSection(tx, section.id, { default_site_space_id: body.defaultSiteSpace });
        else patch.default_site_space_id = body.defaultSiteSpace;
      }
    }
    if (Object.keys(patch).length) await repo.updateSite(tx, site.id, patch);
    await repo.bumpSiteVersion(tx, site.id, nowIso());
    return result(tx, ctx, access, await reload(tx, site));
  });
}

/** Deletes the site with its structure and share links. False when there was no such site (the route answers 204). */
export async function deleteSite(ctx: ServiceContext, organizationId: string, siteId: string): Promise<boolean> {
  return transaction(ctx.db, async (tx) => {
    const access = await requireOrgAccess(tx, ctx.actor, organizationId);
    requireOrgRole(access, sitePolicy.needs('admin'), 'delete sites');
    await lockOrganization(tx, organizationId);
    const site = await repo.findSite(tx, organizationId, siteId);
    return site ? repo.deleteSite(tx, site.id) : false;
  });
}

export async function setPublished(ctx: ServiceContext, organizationId: string, siteId: string, published: boolean) {
  return transaction(ctx.db, async (tx) => {
    const action = published ? 'publish it' : 'unpublish it';
    const { site, access } = await loadSite(tx, ctx, organizationId, siteId, 'edit', action, true);
    await repo.updateSite(tx, site.id, { published: published ? 1 : 0 });
    await repo.bumpSiteVersion(tx, site.id, nowIso());
    return result(tx, ctx, access, await reload(tx, site));
  });
}

// Adaptive content

function adaptiveOf(site: SiteRow): { jsonSchema: AdaptiveJsonSchema; updatedAt: string } {
  return site.adaptive_schema
    ? {
        jsonSchema: JSON.parse(site.adaptive_schema) as AdaptiveJsonSchema,
        updatedAt: site.adaptive_schema_updated_at!,
      }
    : { jsonSchema: emptyAdaptiveSchema(), updatedAt: site.created_at };
}

export async function getAdaptiveSchema(ctx: ServiceContext, organizationId: string, siteId: string) {
  const { site } = await loadSite(ctx.db, ctx, organizationId, siteId, 'viewAdaptiveSchema', 'see its adaptive schema');
  return adaptiveOf(site);
}

export async function putAdaptiveSchema(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  jsonSchema: Record<string, unknown>,
) {
  const valid = validateAdaptiveSchema(jsonSchema);
  return transaction(ctx.db, async (tx) => {
    const { site } = await loadSite(
      tx,
      ctx,
      organizationId,
      siteId,
      'editAdaptiveSchema',
      'change its adaptive schema',
    );
    const now = nowIso();
    await repo.updateSite(tx, site.id, { adaptive_schema: JSON.stringify(valid), adaptive_schema_updated_at: now });
    return adaptiveOf(await reload(tx, site));
  });
}

export async function listTemplateConditions(ctx: ServiceContext, organizationId: string, siteId: string) {
  const { site } = await loadSite(ctx.db, ctx, organizationId, siteId, 'viewAdaptiveSchema', 'see its adaptive schema');
  return templateConditions(adaptiveOf(site).jsonSchema);
}

// The published profile

export async function getPublished(ctx: ServiceContext, organizationId: string, siteId: string, shareKey?: string) {
  const loaded = await loadSite(ctx.db, ctx, organizationId, siteId, 'view', 'see it');
  const view = await structureView(ctx.db, ctx, loaded, shareKey);
  return { view, site: await result(ctx.db, ctx, loaded.access, loaded.site) };
}

// Preview grants

/** A preview grant for the caller, a manager of the site (see preview.ts); the site must be published. */
export async function grantPreview(ctx: ServiceContext, organizationId: string, siteId: string) {
  const { site } = await loadSite(ctx.db, ctx, organizationId, siteId, 'edit', 'preview it');
  if (site.published !== 1) throw new ConflictError('The site is not published: publish it first');
  return { site, ...(await signPreviewGrant(site, ctx.actor.userId)) };
}

// Visitor authentication

export interface PublishingAuth {
  privateKey: string;
  fallbackURL: string | null;
}

function authOf(site: SiteRow): PublishingAuth {
  return { privateKey: site.visitor_key, fallbackURL: site.visitor_fallback_url };
}

export async function getPublishingAuth(ctx: ServiceContext, organizationId: string, siteId: string) {
  const { site } = await loadSite(ctx.db, ctx, organizationId, siteId, 'admin', 'see its signing key');
  return authOf(site);
}

export async function updatePublishingAuth(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  body: UpdatePublishingAuthBody & { regenerate?: boolean },
) {
  return transaction(ctx.db, async (tx) => {
    const { site } = await loadSite(tx, ctx, organizationId, siteId, 'admin', 'change its signing key', true);
    const patch: Partial<SiteRow> = {};
    if (body.regenerate) patch.visitor_key = newVisitorKey();
    else if (body.privateKey !== undefined) patch.visitor_key = body.privateKey;
    if (body.fallbackURL !== undefined) patch.visitor_fallback_url = body.fallbackURL;
    if (Object.keys(patch).length) await repo.updateSite(tx, site.id, patch);
    await repo.bumpSiteVersion(tx, site.id, nowIso());
    return authOf(await reload(tx, site));
  });
}
