import type { ServiceContext } from '../context.js';
import leven from 'leven';
import { transaction, type Executor } from '../../storage/db.js';
import * as repo from '../../storage/repos/links.js';
import type { LinkPageRow, LinkScopeRow, LinkTargetRow } from '../../storage/repos/links.js';
import * as crs from '../../storage/repos/change-requests.js';
import { findRevision } from '../../storage/repos/spaces.js';
import { decodeCursor, encodeCursor } from '../../storage/pagination.js';
import { readContent, type ContentSource, type ResolvedContent } from '../content/service.js';
import type { FileEntry } from '../content/model.js';
import { InvalidError, NotFoundError } from '../errors.js';
import { LARGE_BUILD, copyScope, prefetchDocuments, syncScope } from './maintain.js';
import { syncSpaceLinks } from './hooks.js';
import { targetKey, type LinkRelation, type TargetData } from './resolve.js';
import { documentLinks } from './documents.js';
import { findOrganization } from '../../storage/repos/organizations.js';
import { orgAccess } from '../permissions/resolver.js';
import { presentOrganization } from '../../presenters/organization.js';
import { presentSpace } from '../../presenters/content.js';
import {
  presentLink,
  presentPageLocation,
  targetIds,
  type LinksAt,
  type TargetLookups,
} from '../../presenters/links.js';
import {
  LINK_RELATIONS,
  linkLocationsPerTarget,
  type LinkList,
  type LinkStatus,
  type LinksQuery,
} from '../../../shared/contract/links.js';
import type { PagedQuery, List } from '../../../shared/pagination.js';
import type { LinkPageLocation } from '../../../shared/contract/links.js';

/**
 * Reading links: the space's links list (`…/links`), one page's links and one file's backlinks, of the space's
 * content or of a change request's. Access is checked first (readContent: 404 for whoever may not read the space
 * or change request). Rows are maintained with each revision (hooks.ts); a read only brings them up to date when
 * a change came in some other way (the first read after an upgrade or a restore, a change request's first read),
 * and then pays for what changed.
 */

type Scopes = { scope: LinkScopeRow; spaceScope: LinkScopeRow; at: LinksAt };

const upToDate = (scope: LinkScopeRow | undefined, revisionId: string, appBase: string) =>
  !!scope && scope.revision_id === revisionId && scope.app_base === appBase;

async function ensureScopes(ctx: ServiceContext, c: ResolvedContent): Promise<Scopes> {
  const appBase = ctx.urls.base;
  const spaceId = c.space.id;
  let spaceScope = await repo.findScope(ctx.db, spaceId);
  if (!upToDate(spaceScope, c.space.revision_id, appBase)) {
    const from = spaceScope?.app_base === appBase ? await findRevision(ctx.db, spaceScope.revision_id) : undefined;
    const to = await findRevision(ctx.db, c.space.revision_id);
    if (to) await prefetchDocuments(ctx.db, from ?? { pages_root: null, files_root: null }, to);
    const synced = await transaction(ctx.db, (tx) => syncSpaceLinks(tx, spaceId, appBase));
    if (synced.built >= LARGE_BUILD) await repo.analyzeLinkTables(ctx.db);
    spaceScope = synced.scope;
  }
  // Every location names the organization and the space as the contract's objects, as this caller sees them.
  const [orgRow, access] = await Promise.all([
    findOrganization(ctx.db, c.space.organization_id),
    orgAccess(ctx.db, ctx.actor, c.space.organization_id),
  ]);
  if (!orgRow) throw new NotFoundError('Space not found');
  const organization = presentOrganization(ctx.urls, orgRow, access?.role ?? null);
  const space = presentSpace(ctx.urls, c.space, c.level);
  const at = (scope: LinkScopeRow): LinksAt => ({
    organizationId: c.space.organization_id,
    spaceId,
    organization,
    space,
    revisionId: scope.revision_id,
    ...(c.changeRequest ? { changeRequest: { id: c.changeRequest.id, number: c.changeRequest.number } } : {}),
  });
  const cr = c.changeRequest;
  if (!cr) return { scope: spaceScope!, spaceScope: spaceScope!, at: at(spaceScope!) };

  let scope = await repo.findScope(ctx.db, cr.id);
  if (!upToDate(scope, cr.revision_id, appBase)) {
    const fromId = scope?.app_base === appBase ? scope.revision_id : spaceScope!.revision_id;
    const from = await findRevision(ctx.db, fromId);
    if (from) await prefetchDocuments(ctx.db, from, c.revision);
    const synced = await transaction(ctx.db, async (tx) => {
      // Locks in the order merges take them: the space, the change request, then the scopes.
      const { scope: space } = await syncSpaceLinks(tx, spaceId, appBase);
      await crs.updateChangeRequest(tx, cr.id, { id: cr.id });
      const current = (await crs.findChangeRequest(tx, spaceId, cr.id))!;
      const existing = await repo.lockScope(tx, cr.id);
      let copied = 0;
      if (!existing || existing.app_base !== appBase) {
        // A change request's links start from the space's, then follow the diff to its own content.
        if (existing) await repo.deleteScope(tx, cr.id);
        await copyScope(tx, space, { id: cr.id, spaceId, changeRequestId: cr.id });
        copied = space.targets;
      }
      const revision = (await findRevision(tx, current.revision_id))!;
      await syncScope(tx, { id: cr.id, spaceId, changeRequestId: cr.id, revision }, { appBase });
      return { space, scope: (await repo.findScope(tx, cr.id))!, copied };
    });
    if (synced.copied >= LARGE_BUILD) await repo.analyzeLinkTables(ctx.db);
    spaceScope = synced.space;
    scope = synced.scope;
  }
  return { scope: scope!, spaceScope: spaceScope!, at: at(scope!) };
}

/** Reads the pages and files targets and locations name, to present them. */
async function lookups(
  c: ResolvedContent,
  scope: LinkScopeRow,
  targets: LinkTargetRow[],
  locationPages: string[],
): Promise<TargetLookups> {
  const ids = targetIds(targets);
  const pages = new Map(
    (await repo.pagesByIds(c.reader.db, scope.id, [...ids.pages, ...locationPages])).map((p) => [p.page_id, p]),
  );
  const files = new Map<string, FileEntry>();
  for (const id of new Set(ids.files)) {
    const file = await c.reader.file(id);
    if (file) files.set(id, file);
  }
  return { pages, files };
}

function countFor(scope: LinkScopeRow, status: LinkStatus | undefined): number {
  if (status === undefined) return scope.targets;
  if (status === 'broken') return scope.broken;
  if (status === 'in-app') return scope.in_app;
  return scope.targets - scope.broken - scope.in_app;
}

/** Every link target of the space (or change request), with the first pages linking to each (linkLocationsPerTarget). */
export async function listLinks(
  ctx: ServiceContext,
  spaceId: string,
  source: ContentSource,
  query: LinksQuery,
): Promise<LinkList> {
  const c = await readContent(ctx.db, ctx, spaceId, source);
  const after = decodeCursor(query.page, 1)?.[0];
  const { scope, spaceScope, at } = await ensureScopes(ctx, c);
  const rows = await repo.listTargets(ctx.db, scope.id, query.status, after, query.limit + 1);
  const targets = rows.slice(0, query.limit);
  const locations = await repo.locationsOf(
    ctx.db,
    scope.id,
    targets.map((t) => t.target_key),
    linkLocationsPerTarget(query.limit),
  );
  const found = await lookups(
    c,
    scope,
    targets,
    locations.map((l) => l.page_id),
  );
  const byTarget = new Map<string, LinkPageRow[]>();
  for (const l of locations) {
    const page = found.pages.get(l.page_id);
    if (!page) continue;
    const list = byTarget.get(l.target_key) ?? [];
    list.push(page);
    byTarget.set(l.target_key, list);
  }
  const last = targets[targets.length - 1];
  const suggestions = await anchorSuggestions(ctx.db, targets, found.pages);
  return {
    items: targets.map((t) => {
      const link = presentLink(ctx.urls, at, t, found, byTarget.get(t.target_key) ?? []);
      const suggestion = suggestions.get(t.target_key);
      const target = link.targetReference;
      if (suggestion && target.kind === 'page' && target.internalLocation) {
        target.internalLocation = { ...target.internalLocation, suggestion };
      }
      return link;
    }),
    ...(rows.length > query.limit && last ? { next: { page: encodeCursor([last.target_key]) } } : {}),
    count: countFor(scope, query.status),
    stats: {
      total: scope.targets,
      broken: {
        total: scope.broken,
        ...(c.changeRequest ? { changeRequest: await repo.countBrokenOnlyIn(ctx.db, scope.id, spaceScope.id) } : {}),
      },
    },
  };
}

/** Anchors of a page compared with a broken one, at most (a page of a thousand sections is not read further). */
const SUGGESTION_ANCHORS_MAX = 1000;

/**
 * For each broken link to a section of a page that is there, the page's section whose id is closest to the one the
 * link names (edit distance, at most half the name: a typo, a renamed word, GitHub's ids against another tool's),
 * read from the page's stored anchors.
 */
async function anchorSuggestions(
  db: Executor,
  targets: LinkTargetRow[],
  pages: Map<string, LinkPageRow>,
): Promise<Map<string, string>> {
  const wanted: Array<{ key: string; anchor: string; document: string }> = [];
  for (const t of targets) {
    if (t.status !== 'broken') continue;
    const data = JSON.parse(t.data) as TargetData;
    if (data.k !== 'page' || !('id' in data) || data.a === undefined) continue;
    const document = pages.get(data.id)?.document;
    if (document) wanted.push({ key: t.target_key, anchor: data.a, document });
  }
  const out = new Map<string, string>();
  if (!wanted.length) return out;
  const documents = await documentLinks(db, new Set(wanted.map((w) => w.document)));
  for (const { key, anchor, document } of wanted) {
    const anchors = documents.get(document)?.anchors.slice(0, SUGGESTION_ANCHORS_MAX) ?? [];
    let best: { id: string; distance: number } | undefined;
    for (const id of anchors) {
      const distance = leven(anchor.toLowerCase(), id.toLowerCase());
      if (!best || distance < best.distance) best = { id, distance };
    }
    if (best && best.distance <= Math.ceil(anchor.length / 2)) out.set(key, best.id);
  }
  return out;
}

/** The link targets of one page, in the order the page first links to them. */
export async function pageLinks(
  ctx: ServiceContext,
  spaceId: string,
  source: ContentSource,
  pageId: string,
  query: LinksQuery,
): Promise<LinkList> {
  const c = await readContent(ctx.db, ctx, spaceId, source);
  const cursor = decodeCursor(query.page, 1)?.[0];
  const after = cursor === undefined ? undefined : Number(cursor);
  if (after !== undefined && !Number.isInteger(after)) {
    throw new InvalidError('page', 'is not a page cursor returned by this list (pass back next.page)');
  }
  if (!(await c.reader.entry(pageId))) throw new NotFoundError('Page not found');
  const { scope, spaceScope, at } = await ensureScopes(ctx, c);
  const rows = await repo.pageTargets(ctx.db, scope.id, pageId, query.status, after, query.limit + 1);
  const shown = rows.slice(0, query.limit);
  const targets = new Map(
    (
      await repo.targetsByKeys(
        ctx.db,
        scope.id,
        shown.map((r) => r.target_key),
      )
    ).map((t) => [t.target_key, t]),
  );
  const found = await lookups(c, scope, [...targets.values()], [pageId]);
  const page = found.pages.get(pageId);
  const counts = await repo.pageTargetCounts(ctx.db, scope.id, pageId);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const last = shown[shown.length - 1];
  return {
    items: shown.flatMap((r) => {
      const target = targets.get(r.target_key);
      return target ? [presentLink(ctx.urls, at, target, found, page ? [page] : [])] : [];
    }),
    ...(rows.length > query.limit && last ? { next: { page: encodeCursor([String(last.first)]) } } : {}),
    count: query.status === undefined ? total : (counts.get(query.status) ?? 0),
    stats: {
      total,
      broken: {
        total: counts.get('broken') ?? 0,
        ...(c.changeRequest
          ? { changeRequest: await repo.countBrokenOnlyIn(ctx.db, scope.id, spaceScope.id, pageId) }
          : {}),
      },
    },
  };
}

/** The pages linking to a page (or to one of its anchors), in page id order (0.143.2 listSpacePageBacklinks). */
export async function pageBacklinks(
  ctx: ServiceContext,
  spaceId: string,
  source: ContentSource,
  pageId: string,
  query: PagedQuery,
): Promise<List<LinkPageLocation>> {
  const c = await readContent(ctx.db, ctx, spaceId, source);
  const after = decodeCursor(query.page, 1)?.[0];
  if (!(await c.reader.page(pageId))) throw new NotFoundError('Page not found');
  const { scope, at } = await ensureScopes(ctx, c);
  const rows = await repo.pagesLinkingToPage(ctx.db, scope.id, pageId, after, query.limit + 1);
  return backlinkPage(ctx, scope.id, at, rows, query.limit, () =>
    repo.countPagesLinkingToPage(ctx.db, scope.id, pageId),
  );
}

/** A page of backlinks: the first `limit` of `rows` (one more was read, to tell whether there is a next page). */
async function backlinkPage(
  ctx: ServiceContext,
  scopeId: string,
  at: LinksAt,
  rows: Array<{ page_id: string }>,
  limit: number,
  count: () => Promise<number>,
): Promise<List<LinkPageLocation>> {
  const shown = rows.slice(0, limit);
  const pages = new Map(
    (
      await repo.pagesByIds(
        ctx.db,
        scopeId,
        shown.map((r) => r.page_id),
      )
    ).map((p) => [p.page_id, p]),
  );
  const last = shown[shown.length - 1];
  return {
    items: shown.flatMap((r) => {
      const page = pages.get(r.page_id);
      return page ? [presentPageLocation(ctx.urls, at, page)] : [];
    }),
    ...(rows.length > limit && last ? { next: { page: encodeCursor([last.page_id]) } } : {}),
    count: await count(),
  };
}

/** The pages linking to a file or showing it (as an image), in page id order. */
export async function fileBacklinks(
  ctx: ServiceContext,
  spaceId: string,
  source: ContentSource,
  fileId: string,
  query: PagedQuery,
): Promise<List<LinkPageLocation>> {
  const c = await readContent(ctx.db, ctx, spaceId, source);
  const after = decodeCursor(query.page, 1)?.[0];
  if (!(await c.reader.file(fileId))) throw new NotFoundError('File not found');
  const { scope, at } = await ensureScopes(ctx, c);
  const keys = LINK_RELATIONS.map((relation: LinkRelation) => targetKey({ k: 'file', id: fileId }, relation, 'ok'));
  const rows = await repo.pagesLinkingTo(ctx.db, scope.id, keys, after, query.limit + 1);
  return backlinkPage(ctx, scope.id, at, rows, query.limit, () => repo.countPagesLinkingTo(ctx.db, scope.id, keys));
}
