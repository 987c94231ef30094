import type { ServiceContext } from '../../context.js';
import type { Executor } from '../../../storage/db.js';
import type { SectionRow, SiteSpaceRow, SectionGroupRow } from '../../../storage/repos/sites.js';
import { NotFoundError } from '../../errors.js';
import { hiddenSiteSpaces, loadSite, structureView, type LoadedSite } from '../access.js';
import type { Structure } from '../model.js';

/** A site's structure as the caller reads it, and its items by id (404 when there is none, or it is hidden). */

export async function readView(ctx: ServiceContext, organizationId: string, siteId: string, shareKey?: string) {
  const loaded = await loadSite(ctx.db, ctx, organizationId, siteId, 'view', 'see it');
  return structureView(ctx.db, ctx, loaded, shareKey);
}

export function requireSection(structure: Structure, id: string): SectionRow {
  const section = structure.sections.find((s) => s.id === id);
  if (!section) throw new NotFoundError('Site section not found');
  return section;
}

export function requireSiteSpace(structure: Structure, id: string): SiteSpaceRow {
  const ss = structure.siteSpaces.find((s) => s.id === id);
  if (!ss) throw new NotFoundError('Site space not found');
  return ss;
}

/** A site space the caller sees (see access.ts): one whose space they cannot read answers 404, as if absent. */
export async function requireVisibleSiteSpace(
  db: Executor,
  ctx: ServiceContext,
  loaded: LoadedSite,
  structure: Structure,
  id: string,
): Promise<SiteSpaceRow> {
  const ss = requireSiteSpace(structure, id);
  if ((await hiddenSiteSpaces(db, ctx, loaded.access, { siteSpaces: [ss] })).has(ss.id)) {
    throw new NotFoundError('Site space not found');
  }
  return ss;
}

export function requireGroup(structure: Structure, id: string): SectionGroupRow {
  const group = structure.groups.find((g) => g.id === id);
  if (!group) throw new NotFoundError('Site section group not found');
  return group;
}
