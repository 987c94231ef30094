import type { ServiceContext } from '../context.js';
import { transaction, type Executor, type Tx } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import * as repo from '../../storage/repos/sites.js';
import type { SectionRow, SiteSpaceRow, SectionGroupRow } from '../../storage/repos/sites.js';
import { decodeCursor, encodeCursor } from '../../storage/pagination.js';
import { DomainError, InvalidError, NotFoundError } from '../errors.js';
import type {
  CreateSectionBody,
  CreateSectionGroupBody,
  CreateSiteSpaceBody,
  SiteItemPointer,
  SitePosition,
  UpdateSectionBody,
  UpdateSectionGroupBody,
  UpdateSiteSpaceBody,
} from '../../../shared/contract/sites.js';
import { SECTION_TITLE_MIN, SITE_STRUCTURE_MAX } from '../../../shared/contract/sites.js';
import type { StructureView } from '../../presenters/site.js';
import {
  canSeeSiteSpace,
  hiddenSiteSpaces,
  loadSite,
  orgLevels,
  requireSiteableSpace,
  SITE_MANAGE_ROLE,
  structureView,
  type LoadedSite,
} from './access.js';
import type { OrgLevels } from '../permissions/resolver.js';
import {
  type Structure,
  defaultSection,
  defaultSiteSpace,
  groupSections,
  orderedSections,
  orderedSiteSpaces,
  readStructure,
  siteSpacesIn,
  slugify,
  topItems,
  uniquePath,
} from './model.js';
import { endKey, keysBetween, placeAmong, type Placed } from './positions.js';
import { validateCondition } from './conditions.js';

/** A path that a sibling already has: 409, naming the field. */
class PathTakenError extends DomainError {
  constructor(field: string, what: string) {
    const message = `is already the path of another ${what} here: paths are unique among siblings`;
    super(409, `${field}: ${message}`, [{ path: field, message }]);
  }
}

export interface StructureResult {
  view: StructureView;
  id: string;
}

type Write<T> = (tx: Tx, loaded: LoadedSite, structure: Structure, now: string) => Promise<T>;

/**
 * Runs a structural write: the organization's lock, the caller checked for the manage role, the structure read
 * inside the transaction, and the site's version bumped so that published pages are rendered anew.
 */
export async function writeStructure<T>(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  action: string,
  fn: Write<T>,
) {
  return transaction(ctx.db, async (tx) => {
    const loaded = await loadSite(tx, ctx, organizationId, siteId, SITE_MANAGE_ROLE, action, true);
    const structure = await readStructure(tx, loaded.site.id);
    const now = nowIso();
    const value = await fn(tx, loaded, structure, now);
    await repo.bumpSiteVersion(tx, loaded.site.id, now);
    const site = (await repo.findSiteById(tx, loaded.site.id))!;
    return { value, view: await structureView(tx, ctx, { ...loaded, site }) };
  });
}

async function readView(ctx: ServiceContext, organizationId: string, siteId: string, shareKey?: string) {
  const loaded = await loadSite(ctx.db, ctx, organizationId, siteId, 'read', 'see it');
  return structureView(ctx.db, ctx, loaded, shareKey);
}

function requireSection(structure: Structure, id: string): SectionRow {
  const section = structure.sections.find((s) => s.id === id);
  if (!section) throw new NotFoundError('Site section not found');
  return section;
}

function requireSiteSpace(structure: Structure, id: string): SiteSpaceRow {
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

function requireGroup(structure: Structure, id: string): SectionGroupRow {
  const group = structure.groups.find((g) => g.id === id);
  if (!group) throw new NotFoundError('Site section group not found');
  return group;
}

function limit(count: number, what: string, field: string) {
  if (count >= SITE_STRUCTURE_MAX) throw new InvalidError(field, `a site holds at most ${SITE_STRUCTURE_MAX} ${what}`);
}

const sectionTitle = (title: string) => (title.trim().length >= SECTION_TITLE_MIN ? title.trim() : 'Section');

// Placement

function topPlaced(structure: Structure): Placed[] {
  return topItems(structure).map((item) => ({
    type: item.kind === 'section' ? 'site-section' : 'site-section-group',
    id: item.row.id,
    position: item.row.position,
  }));
}

function sectionSiblings(structure: Structure, section: SectionRow): Placed[] {
  if (section.group_id === null) return topPlaced(structure);
  return groupSections(structure, section.group_id).map((s) => ({
    type: 'site-section',
    id: s.id,
    position: s.position,
  }));
}

function siteSpaceSiblings(structure: Structure, sectionId: string | null): Placed[] {
  return siteSpacesIn(structure, sectionId).map((s) => ({ type: 'site-space', id: s.id, position: s.position }));
}

async function writePositions(tx: Tx, placed: Placed[]): Promise<void> {
  for (const p of placed) {
    if (p.type === 'site-section') await repo.updateSection(tx, p.id, { position: p.position });
    else if (p.type === 'site-section-group') await repo.updateGroup(tx, p.id, { position: p.position });
    else await repo.updateSiteSpace(tx, p.id, { position: p.position });
  }
}

/** Moves an item among its siblings; returns its type and id. */
async function place(
  tx: Tx,
  structure: Structure,
  item: SiteItemPointer,
  position: SitePosition | undefined,
  field: string,
): Promise<void> {
  let siblings: Placed[];
  if (item.type === 'site-space') {
    siblings = siteSpaceSiblings(structure, requireSiteSpace(structure, item.id).section_id);
  } else if (item.type === 'site-section') {
    siblings = sectionSiblings(structure, requireSection(structure, item.id));
  } else if (item.type === 'site-section-group') {
    requireGroup(structure, item.id);
    siblings = topPlaced(structure);
  } else {
    throw new NotFoundError('Site structure item not found: this server has no site external links');
  }
  const { key, renumbered } = placeAmong(siblings, item, position, field);
  await writePositions(tx, [...renumbered, { type: item.type, id: item.id, position: key }]);
}

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

// Lists (the structure is read whole: it is bounded by SITE_STRUCTURE_MAX; the cursor is the last item's sort key)

function pageOf<T>(items: T[], key: (item: T) => string[], arity: number, page: string | undefined, take: number) {
  const after = decodeCursor(page, arity);
  const cmp = (a: string[], b: string[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return 0;
  };
  const rest = after ? items.filter((item) => cmp(key(item), after) > 0) : items;
  const chosen = rest.slice(0, take);
  const last = chosen[chosen.length - 1];
  return {
    items: chosen,
    count: items.length,
    ...(rest.length > take && last !== undefined ? { next: { page: encodeCursor(key(last)) } } : {}),
  };
}

function sectionKey(structure: Structure, s: SectionRow): string[] {
  if (s.group_id === null) return [s.position, s.id, '', ''];
  const group = structure.groups.find((g) => g.id === s.group_id)!;
  return [group.position, group.id, s.position, s.id];
}

function siteSpaceKey(structure: Structure, ss: SiteSpaceRow): string[] {
  const section = ss.section_id ? structure.sections.find((s) => s.id === ss.section_id) : undefined;
  return [...(section ? sectionKey(structure, section) : ['', '', '', '']), ss.position, ss.id];
}

const SECTION_KEY_ARITY = 4;

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

export async function listGroups(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  query: { page?: string; limit: number },
) {
  const view = await readView(ctx, organizationId, siteId);
  const groups = topItems(view.structure).flatMap((i) => (i.kind === 'group' ? [i.row] : []));
  return { view, page: pageOf(groups, (g) => [g.position, g.id], 2, query.page, query.limit) };
}

// Sections

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

// Site spaces

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

// Section groups

function requireSections(structure: Structure, ids: string[], field: string): SectionRow[] {
  const seen = new Set<string>();
  return ids.map((id, i) => {
    const section = structure.sections.find((s) => s.id === id);
    if (!section) throw new InvalidError(`${field}.${i}`, 'no such section in this site');
    if (seen.has(id)) throw new InvalidError(`${field}.${i}`, 'is given twice');
    seen.add(id);
    return section;
  });
}

export async function addGroup(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  body: CreateSectionGroupBody,
) {
  const { value: id, view } = await writeStructure(
    ctx,
    organizationId,
    siteId,
    'add section groups',
    async (tx, loaded, structure, now) => {
      limit(structure.groups.length, 'section groups', 'title');
      const members = requireSections(structure, body.sections ?? [], 'sections');
      // The group takes the place of its first section when that one is at the top level; otherwise the end.
      const first = members[0];
      const group: SectionGroupRow = {
        id: newId(),
        site_id: loaded.site.id,
        title: body.title,
        icon: body.icon ?? null,
        position: first && first.group_id === null ? first.position : endKey(topPlaced(structure)),
        created_at: now,
      };
      await repo.insertGroup(tx, group);
      const keys = keysBetween(null, null, members.length);
      for (const [i, section] of members.entries()) {
        await repo.updateSection(tx, section.id, { group_id: group.id, position: keys[i]! });
      }
      return group.id;
    },
  );
  return { view, id };
}

export async function updateGroup(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  groupId: string,
  body: UpdateSectionGroupBody,
) {
  const { view } = await writeStructure(ctx, organizationId, siteId, 'change section groups', async (tx, _l, s) => {
    requireGroup(s, groupId);
    const patch: Partial<SectionGroupRow> = {};
    if (body.title !== undefined) patch.title = body.title;
    if (body.icon !== undefined) patch.icon = body.icon;
    if (Object.keys(patch).length) await repo.updateGroup(tx, groupId, patch);
  });
  return { view, id: groupId };
}

/** Sections leaving `group` for the top level, placed where the group is (in their order). */
async function ungroup(tx: Tx, structure: Structure, group: SectionGroupRow, sections: SectionRow[]): Promise<void> {
  const top = topPlaced(structure);
  const index = top.findIndex((p) => p.id === group.id);
  const next = top[index + 1]?.position ?? null;
  const keys = keysBetween(group.position, next, sections.length);
  for (const [i, section] of sections.entries()) {
    await repo.updateSection(tx, section.id, { group_id: null, position: keys[i]! });
  }
}

/** Deletes a group; its sections stay, at the top level where the group was. */
export async function deleteGroup(ctx: ServiceContext, organizationId: string, siteId: string, groupId: string) {
  const { value } = await writeStructure(ctx, organizationId, siteId, 'remove section groups', async (tx, _l, s) => {
    const group = s.groups.find((g) => g.id === groupId);
    if (!group) return false;
    await ungroup(tx, s, group, groupSections(s, group.id));
    await repo.deleteGroup(tx, group.id);
    return true;
  });
  return value;
}

export async function addSectionToGroup(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  groupId: string,
  sectionId: string,
) {
  const { view } = await writeStructure(ctx, organizationId, siteId, 'change section groups', async (tx, _l, s) => {
    const group = requireGroup(s, groupId);
    const section = s.sections.find((x) => x.id === sectionId);
    if (!section) throw new InvalidError('sectionId', 'no such section in this site');
    if (section.group_id === group.id) return;
    const members = groupSections(s, group.id).map((x) => ({ type: 'site-section', id: x.id, position: x.position }));
    await repo.updateSection(tx, section.id, { group_id: group.id, position: endKey(members) });
  });
  return { view, id: groupId };
}

/** Takes a section out of a group (to the top level, after the group). False when it was not in the group. */
export async function removeSectionFromGroup(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  groupId: string,
  sectionId: string,
) {
  const { value } = await writeStructure(ctx, organizationId, siteId, 'change section groups', async (tx, _l, s) => {
    const group = requireGroup(s, groupId);
    const section = s.sections.find((x) => x.id === sectionId && x.group_id === group.id);
    if (!section) return false;
    await ungroup(tx, s, group, [section]);
    return true;
  });
  return value;
}

export async function moveGroup(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  groupId: string,
  position: SitePosition | undefined,
) {
  const { view } = await writeStructure(ctx, organizationId, siteId, 'move section groups', async (tx, _l, s) => {
    await place(tx, s, { type: 'site-section-group', id: groupId }, position, 'position');
  });
  return { view, id: groupId };
}

/** Reorders one item among its siblings (`PATCH …/structure/sort`). */
export async function sortStructure(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  item: SiteItemPointer,
  position: SitePosition | undefined,
) {
  const { view } = await writeStructure(ctx, organizationId, siteId, 'reorder its structure', async (tx, l, s) => {
    if (item.type === 'site-space') await requireVisibleSiteSpace(tx, ctx, l, s, item.id);
    await place(tx, s, item, position, 'position');
  });
  return { view, id: item.id, type: item.type };
}
