import type { ServiceContext } from '../../context.js';
import { newId } from '../../../lib/ids.js';
import * as repo from '../../../storage/repos/sites.js';
import type { SectionRow, SiteSpaceRow } from '../../../storage/repos/sites.js';
import { InvalidError } from '../../errors.js';
import type { CreateSiteSpaceBody, SitePosition, UpdateSiteSpaceBody } from '../../../../shared/contract/sites.js';
import { requireSiteableSpace } from '../access.js';
import { defaultSection, defaultSiteSpace, orderedSiteSpaces, siteSpacesIn, slugify, uniquePath } from '../model.js';
import { endKey } from '../positions.js';
import { validateCondition } from '../conditions.js';
import { readView, requireSection, requireVisibleSiteSpace } from './lookup.js';
import { pageOf, siteSpaceKey, SECTION_KEY_ARITY } from './paging.js';
import { place, siteSpaceSiblings } from './placement.js';
import { limit, PathTakenError, writeStructure } from './write.js';

/**
 * The site spaces of a site (a space shown in a section, or at the site's root): listed, added, changed, removed
 * and moved.
 */

export async function listSiteSpaces(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  query: { page?: string; limit: number; shareKey?: string; default?: boolean },
) {
  const view = await readView(ctx, organizationId, siteId, query.shareKey);
  const { structure, site } = view;
  const defaults = new Set<string>();
  if (structure.sections.length === 0) {
    const d = defaultSiteSpace(site, structure, null);
    if (d) defaults.add(d.id);
  } else {
    const d = defaultSection(site, structure);
    const ss = d && defaultSiteSpace(site, structure, d);
    if (ss) defaults.add(ss.id);
  }
  // Site spaces whose space the caller cannot read are left out, before paging, so that count and pages agree.
  const all = orderedSiteSpaces(structure).filter(
    (ss) => view.visible(ss) && (query.default === undefined || defaults.has(ss.id) === query.default),
  );
  const key = (ss: SiteSpaceRow) => siteSpaceKey(structure, ss);
  return { view, page: pageOf(all, key, SECTION_KEY_ARITY + 2, query.page, query.limit) };
}

export async function addSiteSpace(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  body: CreateSiteSpaceBody,
) {
  const { value: id, view } = await writeStructure(
    ctx,
    organizationId,
    siteId,
    'add spaces to it',
    async (tx, loaded, structure, now) => {
      limit(structure.siteSpaces.length, 'site spaces', 'spaceId');
      let section: SectionRow | undefined;
      if (body.sectionId !== undefined) {
        section = structure.sections.find((s) => s.id === body.sectionId);
        if (!section) throw new InvalidError('sectionId', 'no such section in this site');
      } else if (structure.sections.length > 0) {
        section = defaultSection(loaded.site, structure);
      }
      const space = await requireSiteableSpace(tx, ctx, loaded.access, body.spaceId, 'spaceId');
      const parentId = section?.id ?? null;
      const siblings = siteSpacesIn(structure, parentId);
      const row: SiteSpaceRow = {
        id: newId(),
        site_id: loaded.site.id,
        section_id: parentId,
        parent_key: parentId ?? '',
        space_id: space.id,
        path: uniquePath(
          slugify(space.title, 'space'),
          siblings.map((s) => s.path),
        ),
        condition: null,
        position: endKey(siteSpaceSiblings(structure, parentId)),
        created_at: now,
      };
      await repo.insertSiteSpace(tx, row);
      return row.id;
    },
  );
  return { view, id };
}

export async function updateSiteSpace(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  body: UpdateSiteSpaceBody,
) {
  if (typeof body.condition === 'string') validateCondition('condition', body.condition);
  const { view } = await writeStructure(
    ctx,
    organizationId,
    siteId,
    'change site spaces',
    async (tx, loaded, structure) => {
      const ss = await requireVisibleSiteSpace(tx, ctx, loaded, structure, siteSpaceId);
      const patch: Partial<SiteSpaceRow> = {};
      if (body.path !== undefined && body.path !== ss.path) {
        if (siteSpacesIn(structure, ss.section_id).some((s) => s.id !== ss.id && s.path === body.path)) {
          throw new PathTakenError('path', 'site space');
        }
        patch.path = body.path;
      }
      if (body.condition !== undefined) patch.condition = body.condition;
      if (body.spaceId !== undefined && body.spaceId !== ss.space_id) {
        patch.space_id = (await requireSiteableSpace(tx, ctx, loaded.access, body.spaceId, 'spaceId')).id;
      }
      if (Object.keys(patch).length) await repo.updateSiteSpace(tx, ss.id, patch);
    },
  );
  return { view, id: siteSpaceId };
}

/** Removes a site space; when it was its parent's default, the first remaining one becomes it. */
export async function deleteSiteSpace(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
) {
  const { value } = await writeStructure(
    ctx,
    organizationId,
    siteId,
    'remove site spaces',
    async (tx, loaded, structure) => {
      const ss = structure.siteSpaces.find((s) => s.id === siteSpaceId);
      if (!ss) return false;
      const section = ss.section_id ? requireSection(structure, ss.section_id) : null;
      const wasDefault = defaultSiteSpace(loaded.site, structure, section)?.id === ss.id;
      await repo.deleteSiteSpace(tx, ss.id);
      if (wasDefault) {
        const next = siteSpacesIn(structure, ss.section_id).find((s) => s.id !== ss.id)?.id ?? null;
        if (section) await repo.updateSection(tx, section.id, { default_site_space_id: next });
        else await repo.updateSite(tx, loaded.site.id, { default_site_space_id: next });
      }
      return true;
    },
  );
  return value;
}

export async function moveSiteSpace(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  position: SitePosition | undefined,
) {
  const { view } = await writeStructure(ctx, organizationId, siteId, 'move site spaces', async (tx, l, structure) => {
    await requireVisibleSiteSpace(tx, ctx, l, structure, siteSpaceId);
    await place(tx, structure, { type: 'site-space', id: siteSpaceId }, position, 'position');
  });
  return { view, id: siteSpaceId };
}
