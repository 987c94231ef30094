import type { ServiceContext } from '../../context.js';
import type { Tx } from '../../../storage/db.js';
import { newId } from '../../../lib/ids.js';
import * as repo from '../../../storage/repos/sites.js';
import type { SectionRow, SiteSpaceRow } from '../../../storage/repos/sites.js';
import { InvalidError } from '../../errors.js';
import type { CreateSectionBody, SitePosition, UpdateSectionBody } from '../../../../shared/contract/sites.js';
import { SECTION_TITLE_MIN } from '../../../../shared/contract/sites.js';
import { canSeeSiteSpace, hiddenSiteSpaces, orgLevels, requireSiteableSpace, type LoadedSite } from '../access.js';
import type { OrgLevels } from '../../permissions/resolver.js';
import {
  type Structure,
  defaultSection,
  defaultSiteSpace,
  orderedSections,
  siteSpacesIn,
  slugify,
  uniquePath,
} from '../model.js';
import { endKey } from '../positions.js';
import { validateCondition } from '../conditions.js';
import { readView, requireSection } from './lookup.js';
import { pageOf, sectionKey, SECTION_KEY_ARITY } from './paging.js';
import { place, topPlaced } from './placement.js';
import { limit, PathTakenError, writeStructure } from './write.js';

/** The sections of a site: listed, added (with their first site space), changed, deleted and moved. */

const sectionTitle = (title: string) => (title.trim().length >= SECTION_TITLE_MIN ? title.trim() : 'Section');

/**
 * A site that gets its first section while it has site spaces at its root: those become a section of their own
 * first (titled after the default one's space), which is the default section, so nothing is lost from the site.
 */
async function wrapRootSiteSpaces(
  tx: Tx,
  loaded: LoadedSite,
  structure: Structure,
  now: string,
  levels: OrgLevels,
): Promise<void> {
  const root = siteSpacesIn(structure, null);
  if (structure.sections.length > 0 || root.length === 0) return;
  const def = defaultSiteSpace(loaded.site, structure, null)!;
  const [space] = await repo.spacesByIds(tx, [def.space_id]);
  // The title of a space hidden from the caller is not theirs to copy into a section they see.
  const title = sectionTitle(canSeeSiteSpace(levels, space) ? space.title : '');
  const section: SectionRow = {
    id: newId(),
    site_id: loaded.site.id,
    group_id: null,
    title,
    path: slugify(title, 'section'),
    description: null,
    condition: null,
    icon: null,
    position: endKey([]),
    default_site_space_id: def.id,
    created_at: now,
  };
  await repo.insertSection(tx, section);
  for (const ss of root) await repo.updateSiteSpace(tx, ss.id, { section_id: section.id, parent_key: section.id });
  await repo.updateSite(tx, loaded.site.id, { default_section_id: section.id, default_site_space_id: null });
  loaded.site = { ...loaded.site, default_section_id: section.id, default_site_space_id: null };
  structure.sections.push(section);
  for (const ss of root) Object.assign(ss, { section_id: section.id, parent_key: section.id });
}

export async function listSections(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  query: { page?: string; limit: number; shareKey?: string },
) {
  const view = await readView(ctx, organizationId, siteId, query.shareKey);
  const { structure } = view;
  const sections = orderedSections(structure);
  const key = (s: SectionRow) => sectionKey(structure, s);
  return { view, page: pageOf(sections, key, SECTION_KEY_ARITY, query.page, query.limit) };
}

export async function addSection(ctx: ServiceContext, organizationId: string, siteId: string, body: CreateSectionBody) {
  const { value: id, view } = await writeStructure(
    ctx,
    organizationId,
    siteId,
    'add sections',
    async (tx, loaded, structure, now) => {
      limit(structure.sections.length, 'sections', 'spaceId');
      const levels = await orgLevels(tx, ctx, loaded.access);
      const space = await requireSiteableSpace(tx, ctx, loaded.access, body.spaceId, 'spaceId', levels);
      await wrapRootSiteSpaces(tx, loaded, structure, now, levels);
      const title = sectionTitle(body.title ?? space.title);
      const section: SectionRow = {
        id: newId(),
        site_id: loaded.site.id,
        group_id: null,
        title,
        path: uniquePath(
          slugify(title, 'section'),
          structure.sections.map((s) => s.path),
        ),
        description: null,
        condition: null,
        icon: body.icon ?? null,
        position: endKey(topPlaced(structure)),
        default_site_space_id: null,
        created_at: now,
      };
      const ss: SiteSpaceRow = {
        id: newId(),
        site_id: loaded.site.id,
        section_id: section.id,
        parent_key: section.id,
        space_id: space.id,
        path: slugify(space.title, 'space'),
        condition: null,
        position: endKey([]),
        created_at: now,
      };
      section.default_site_space_id = ss.id;
      await repo.insertSection(tx, section);
      await repo.insertSiteSpace(tx, ss);
      return section.id;
    },
  );
  return { view, id };
}

export async function updateSection(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  sectionId: string,
  body: UpdateSectionBody,
) {
  if (typeof body.condition === 'string') validateCondition('condition', body.condition);
  const { view } = await writeStructure(ctx, organizationId, siteId, 'change sections', async (tx, l, structure) => {
    const section = requireSection(structure, sectionId);
    const patch: Partial<SectionRow> = {};
    if (body.title !== undefined) patch.title = body.title;
    if (body.path !== undefined && body.path !== section.path) {
      if (structure.sections.some((s) => s.id !== section.id && s.path === body.path)) {
        throw new PathTakenError('path', 'section');
      }
      patch.path = body.path;
    }
    if (body.defaultSiteSpace !== undefined) {
      const target = siteSpacesIn(structure, section.id).find((s) => s.id === body.defaultSiteSpace);
      if (!target || (await hiddenSiteSpaces(tx, ctx, l.access, { siteSpaces: [target] })).size > 0) {
        throw new InvalidError('defaultSiteSpace', 'not a site space of this section');
      }
      patch.default_site_space_id = body.defaultSiteSpace;
    }
    if (body.condition !== undefined) patch.condition = body.condition;
    if (body.icon !== undefined) patch.icon = body.icon;
    if (body.description !== undefined) patch.description = body.description;
    if (Object.keys(patch).length) await repo.updateSection(tx, section.id, patch);
  });
  return { view, id: sectionId };
}

/** Deletes a section with its site spaces; when it was the default, the first remaining section becomes it. */
export async function deleteSection(ctx: ServiceContext, organizationId: string, siteId: string, sectionId: string) {
  const { value } = await writeStructure(
    ctx,
    organizationId,
    siteId,
    'remove sections',
    async (tx, loaded, structure) => {
      const section = structure.sections.find((s) => s.id === sectionId);
      if (!section) return false;
      const wasDefault = defaultSection(loaded.site, structure)?.id === section.id;
      await repo.deleteSection(tx, section.id);
      if (wasDefault) {
        const next = orderedSections(structure).find((s) => s.id !== section.id);
        await repo.updateSite(tx, loaded.site.id, { default_section_id: next?.id ?? null });
      }
      return true;
    },
  );
  return value;
}

export async function moveSection(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  sectionId: string,
  position: SitePosition | undefined,
) {
  const { view } = await writeStructure(ctx, organizationId, siteId, 'move sections', async (tx, _l, structure) => {
    await place(tx, structure, { type: 'site-section', id: sectionId }, position, 'position');
  });
  return { view, id: sectionId };
}
