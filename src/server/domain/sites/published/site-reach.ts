import type { Executor } from '../../../storage/db.js';
import * as repo from '../../../storage/repos/sites.js';
import type { SiteRow } from '../../../storage/repos/sites.js';
import type { SpaceRow } from '../../../storage/repos/spaces.js';
import { NotFoundError } from '../../errors.js';
import { RevisionReader, revisionOfSpace } from '../../content/model.js';
import type { ContentSource, ResolvedContent } from '../../content/service.js';
import { readStructure, type Structure } from '../model.js';
import { spacesOf, visibleSiteSpaces, visibleStructure, type Visible } from './visitor-access.js';
import type { SiteTokenScope } from './site-token.js';
import { siteSpaceUrlIn, siteSpaceUrlOf } from './urls.js';
import { FILES_SEGMENT, publishedSiteUrl } from '../../../lib/urls.js';
import { LruCache } from '../../../lib/lru-cache.js';
import { objectsContaining } from '../../../storage/repos/objects.js';
import { blocksToMarkdown } from '../../content/blocks.js';
import type { DocumentObject } from '../../content/model.js';
import { extractOperationBlocks } from '../../../../shared/openapi-blocks.js';

/**
 * What a request carrying a site token (site-token.ts) may read, checked at every use, not only when the token
 * was made: the site still exists in the token's organization and is published; the share key it was made with is
 * still active; a space is read only when it is among the token's spaces and a site space of the site still shows
 * it (to this visitor, by the claims the token carries); and only the space's history is readable (its current
 * revision and the earlier ones it had), never a change request's revision. Everything else answers 404, as for
 * a caller who may not know it exists.
 */
export interface SiteReach {
  scope: SiteTokenScope;
  site: SiteRow;
  structure: Structure;
  spaces: Map<string, SpaceRow>;
  visible: Visible;
  /** Ids of the site spaces this visitor sees. */
  shown: Set<string>;
}

export async function siteReach(db: Executor, scope: SiteTokenScope): Promise<SiteReach> {
  const site = await repo.findSiteById(db, scope.siteId);
  if (!site || site.organization_id !== scope.organizationId || site.published !== 1) {
    throw new NotFoundError('Site not found');
  }
  if (scope.shareKey !== undefined) {
    if (!(await repo.findActiveShareLinkByKey(db, site.id, scope.shareKey))) throw new NotFoundError('Site not found');
  } else if (site.visibility === 'share-link') {
    throw new NotFoundError('Site not found');
  }
  const structure = await readStructure(db, site.id);
  const spaces = await spacesOf(db, structure);
  const visible = visibleStructure(structure, spaces, scope.claims ?? {});
  const shown = new Set(visibleSiteSpaces(visible).map((ss) => ss.id));
  return { scope, site, structure, spaces, visible, shown };
}

/** The space, when the token may read it: one of its spaces, shown by a site space this visitor sees. */
export function reachedSpace(reach: SiteReach, spaceId: string): SpaceRow | undefined {
  if (!reach.scope.spaceIds.includes(spaceId)) return undefined;
  const shown = visibleSiteSpaces(reach.visible).some((ss) => ss.space_id === spaceId);
  return shown ? reach.spaces.get(spaceId) : undefined;
}

/** Whether the token is for this site of this organization (404 otherwise). */
export function requireSite(scope: SiteTokenScope, organizationId: string, siteId: string): void {
  if (scope.organizationId !== organizationId || scope.siteId !== siteId) throw new NotFoundError('Site not found');
}

/** The content a site token reads: the space's current revision or one of its history (never a change request's). */
export async function readPublishedContent(
  db: Executor,
  publicUrl: string,
  scope: SiteTokenScope,
  spaceId: string,
  source: ContentSource,
): Promise<ResolvedContent & { publicFiles: string }> {
  const reach = await siteReach(db, scope);
  const space = reachedSpace(reach, spaceId);
  if (!space) throw new NotFoundError('Space not found');
  if (source.kind === 'change-request') throw new NotFoundError('Change request not found');
  const revision = await revisionOfSpace(db, spaceId, source.kind === 'revision' ? source.id : space.revision_id);
  if (revision.change_request_id !== null && revision.type !== 'merge') throw new NotFoundError('Revision not found');
  return {
    space,
    level: 'read',
    revision,
    reader: new RevisionReader(db, revision),
    publicFiles: `${siteSpaceUrlFor(reach, publicUrl, spaceId)}/${FILES_SEGMENT}`,
  };
}

/** The published URL of the site space showing `spaceId` to this visitor: the token's own when it shows it. */
export function siteSpaceUrlFor(reach: SiteReach, publicUrl: string, spaceId: string): string {
  const root = publishedSiteUrl(publicUrl, reach.site.id, reach.scope.shareKey);
  for (const [parent, list] of reach.visible.siteSpaces) {
    const own = list.find((ss) => ss.id === reach.scope.siteSpaceId && ss.space_id === spaceId);
    if (own)
      return siteSpaceUrlIn(
        root,
        reach.structure.sections.find((x) => x.id === parent),
        own,
      );
  }
  return siteSpaceUrlOf(reach.structure, reach.visible, root, spaceId) ?? root;
}

/** Whether a space's revision shows a spec (its pages' `{% openapi-operation spec="…" %}` blocks), by revision and slug. */
const specUse = new LruCache<boolean>(2048);
/** Documents looked at per query. */
const DOCUMENTS_BATCH = 500;

/**
 * Whether a page this token's visitor may open shows the OpenAPI specification `slug`: a site token reads a
 * specification of its organization only then (the renderer asks for it to draw such a block). Pages are looked at
 * once per revision and slug; only documents holding an operation block are read.
 */
export async function siteShowsSpec(db: Executor, reach: SiteReach, slug: string): Promise<boolean> {
  const spaces = [...new Set(visibleSiteSpaces(reach.visible).map((ss) => ss.space_id))]
    .filter((id) => reach.scope.spaceIds.includes(id))
    .map((id) => reach.spaces.get(id))
    .filter((s): s is SpaceRow => s !== undefined);
  for (const space of spaces) {
    const key = `${space.revision_id}\n${slug}`;
    let shown = specUse.get(key);
    if (shown === undefined) {
      shown = await revisionShowsSpec(db, space.id, space.revision_id, slug);
      specUse.set(key, shown);
    }
    if (shown) return true;
  }
  return false;
}

async function revisionShowsSpec(db: Executor, spaceId: string, revisionId: string, slug: string): Promise<boolean> {
  const reader = new RevisionReader(db, await revisionOfSpace(db, spaceId, revisionId));
  const documents = new Set<string>();
  await reader.walkTree({
    enter: (page) => {
      if (page.version.document) documents.add(page.version.document);
      return true;
    },
    leave: () => undefined,
  });
  const ids = [...documents];
  for (let i = 0; i < ids.length; i += DOCUMENTS_BATCH) {
    const rows = await objectsContaining(db, ids.slice(i, i + DOCUMENTS_BATCH), 'openapi-operation');
    for (const row of rows) {
      const markdown = blocksToMarkdown((JSON.parse(row.data) as DocumentObject).blocks);
      if (extractOperationBlocks(markdown, () => '').blocks.some((b) => b.spec === slug)) return true;
    }
  }
  return false;
}
