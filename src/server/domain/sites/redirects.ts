import type { ServiceContext } from '../context.js';
import { transaction, type Executor } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import * as repo from '../../storage/repos/sites.js';
import type { SiteRedirectRow, SiteRow } from '../../storage/repos/sites.js';
import type { SpaceRow } from '../../storage/repos/spaces.js';
import { findRevision } from '../../storage/repos/spaces.js';
import { keysetPage } from '../../storage/pagination.js';
import { ConflictError, InvalidError, NotFoundError } from '../errors.js';
import type { SiteRedirect, SiteRedirectDestination, UpdateSiteRedirectBody } from '../../../shared/contract/sites.js';
import { RevisionReader } from '../content/model.js';
import { loadSite } from './access.js';
import { readStructure, type Structure } from './model.js';
import { siteSpaceUrlIn } from './published/urls.js';
import { spacesOf } from './published/visitor-access.js';

/**
 * Site redirects: a path of the published site (`/old/page`, under its root and share key) that leads to a section,
 * a site space or a page of the site. Members who may see the site read them; those who may edit it change them.
 * The published site follows one when a path names no page (dispatch.ts), and GitBook's renderer asks for one by
 * its source (`GET …/redirect?source=`). A destination is checked when the redirect is written; one that has gone
 * since (a page deleted) leads nowhere and the path answers 404 as before.
 */

/** Redirects a site may hold. */
export const SITE_REDIRECTS_MAX = 10_000;

export function presentRedirect(row: SiteRedirectRow): SiteRedirect {
  return {
    object: 'site-redirect',
    id: row.id,
    source: row.source,
    destination: JSON.parse(row.destination) as SiteRedirectDestination,
  };
}

export async function listRedirects(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  query: { page?: string; limit: number; search?: string },
) {
  const { site } = await loadSite(ctx.db, ctx, organizationId, siteId, 'view', 'see its redirects');
  return keysetPage({
    page: query.page,
    limit: query.limit,
    arity: 1,
    rows: (after, take) => repo.listRedirects(ctx.db, site.id, query.search || undefined, after, take),
    count: () => repo.countRedirects(ctx.db, site.id, query.search || undefined),
    key: (r) => [r.id],
  });
}

/** 400 naming the field when the destination is not part of the site (or the page not in its site space). */
async function checkDestination(db: Executor, site: SiteRow, destination: SiteRedirectDestination, field: string) {
  const structure = await readStructure(db, site.id);
  if (destination.kind === 'site-section') {
    if (!structure.sections.some((s) => s.id === destination.siteSectionId)) {
      throw new InvalidError(`${field}.siteSectionId`, 'No such section on this site');
    }
    return;
  }
  const siteSpace = structure.siteSpaces.find((s) => s.id === destination.siteSpaceId);
  if (!siteSpace) throw new InvalidError(`${field}.siteSpaceId`, 'No such site space on this site');
  if (destination.kind === 'site-page') {
    const spaces = await spacesOf(db, { ...structure, siteSpaces: [siteSpace] });
    const path = await pagePath(db, spaces.get(siteSpace.space_id), destination.pageId);
    if (path === undefined) throw new InvalidError(`${field}.pageId`, 'No such page in this site space');
  }
}

/** The path of a page in the space's current content; undefined when it has no such page. */
async function pagePath(db: Executor, space: SpaceRow | undefined, pageId: string): Promise<string | undefined> {
  const revision = space && !space.deleted_at ? await findRevision(db, space.revision_id) : undefined;
  if (!revision) return undefined;
  const node = await new RevisionReader(db, revision).page(pageId);
  return node && node.version.type !== 'link' ? node.path : undefined;
}

export async function createRedirect(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  body: { source: string; destination: SiteRedirectDestination },
) {
  return transaction(ctx.db, async (tx) => {
    const { site } = await loadSite(tx, ctx, organizationId, siteId, 'edit', 'add redirects', true);
    if ((await repo.countRedirects(tx, site.id)) >= SITE_REDIRECTS_MAX) {
      throw new ConflictError(`A site holds at most ${SITE_REDIRECTS_MAX} redirects: delete some first`);
    }
    if (await repo.findRedirectBySource(tx, site.id, body.source)) {
      throw new ConflictError(`source: a redirect from ${body.source} exists already on this site`);
    }
    await checkDestination(tx, site, body.destination, 'destination');
    const now = nowIso();
    const row: SiteRedirectRow = {
      id: newId(),
      site_id: site.id,
      source: body.source,
      destination: JSON.stringify(body.destination),
      created_at: now,
      updated_at: now,
    };
    await repo.insertRedirect(tx, row);
    return row;
  });
}

export async function updateRedirect(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  redirectId: string,
  body: UpdateSiteRedirectBody,
) {
  return transaction(ctx.db, async (tx) => {
    const { site } = await loadSite(tx, ctx, organizationId, siteId, 'edit', 'change redirects', true);
    const row = await repo.findRedirect(tx, site.id, redirectId);
    if (!row) throw new NotFoundError('Redirect not found');
    const patch: Partial<SiteRedirectRow> = { updated_at: nowIso() };
    if (body.source !== undefined && body.source !== row.source) {
      if (await repo.findRedirectBySource(tx, site.id, body.source)) {
        throw new ConflictError(`source: a redirect from ${body.source} exists already on this site`);
      }
      patch.source = body.source;
    }
    if (body.destination !== undefined) {
      await checkDestination(tx, site, body.destination, 'destination');
      patch.destination = JSON.stringify(body.destination);
    }
    await repo.updateRedirect(tx, row.id, patch);
    return (await repo.findRedirect(tx, site.id, row.id))!;
  });
}

/** False when there was no such redirect (the route answers 204). */
export async function deleteRedirect(ctx: ServiceContext, organizationId: string, siteId: string, id: string) {
  return transaction(ctx.db, async (tx) => {
    const { site } = await loadSite(tx, ctx, organizationId, siteId, 'edit', 'delete redirects');
    const row = await repo.findRedirect(tx, site.id, id);
    return row ? repo.deleteRedirect(tx, row.id) : false;
  });
}

/**
 * Where a redirect leads on the published site whose root (with its share key) is `root`, among the site spaces
 * `shown` lets through: undefined when its destination has gone, or is not shown to this visitor.
 */
export async function redirectTarget(
  db: Executor,
  root: string,
  structure: Structure,
  spaces: Map<string, SpaceRow>,
  destination: SiteRedirectDestination,
  shown: (siteSpaceId: string) => boolean = () => true,
): Promise<string | undefined> {
  if (destination.kind === 'site-section') {
    const section = structure.sections.find((s) => s.id === destination.siteSectionId);
    return section ? `${root}/${section.path}` : undefined;
  }
  const siteSpace = structure.siteSpaces.find((s) => s.id === destination.siteSpaceId);
  if (!siteSpace || !shown(siteSpace.id)) return undefined;
  const section = siteSpace.section_id ? structure.sections.find((s) => s.id === siteSpace.section_id) : undefined;
  const url = siteSpaceUrlIn(root, section, siteSpace);
  if (destination.kind === 'site-space') return url;
  const path = await pagePath(db, spaces.get(siteSpace.space_id), destination.pageId);
  return path === undefined ? undefined : path ? `${url}/${path}` : url;
}

/** The redirect from `source` on a site a member may see, with where it leads (404 when none, or it leads nowhere). */
export async function redirectBySource(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  source: string,
  root: string,
) {
  const { site } = await loadSite(ctx.db, ctx, organizationId, siteId, 'view', 'see its redirects');
  const structure = await readStructure(ctx.db, site.id);
  const found = await findRedirect(ctx.db, site, structure, await spacesOf(ctx.db, structure), source, root);
  if (!found) throw noRedirect(source);
  return found;
}

/** The redirect of `source` and its target; undefined when there is none, or it leads nowhere. */
export async function findRedirect(
  db: Executor,
  site: SiteRow,
  structure: Structure,
  spaces: Map<string, SpaceRow>,
  source: string,
  root: string,
  shown?: (siteSpaceId: string) => boolean,
): Promise<{ redirect: SiteRedirect; target: string } | undefined> {
  const row = await repo.findRedirectBySource(db, site.id, source);
  if (!row) return undefined;
  const redirect = presentRedirect(row);
  const target = await redirectTarget(db, root, structure, spaces, redirect.destination, shown);
  return target ? { redirect, target } : undefined;
}

/** The 404 of a path that leads nowhere. */
export function noRedirect(source: string): NotFoundError {
  return new NotFoundError(`No redirect from ${source} on this site`);
}
