import type { ServiceContext } from '../../context.js';
import type { Tx } from '../../../storage/db.js';
import { newId } from '../../../lib/ids.js';
import * as repo from '../../../storage/repos/sites.js';
import type { SectionRow, SectionGroupRow } from '../../../storage/repos/sites.js';
import { InvalidError } from '../../errors.js';
import type {
  CreateSectionGroupBody,
  SitePosition,
  UpdateSectionGroupBody,
} from '../../../../shared/contract/sites.js';
import { type Structure, groupSections, topItems } from '../model.js';
import { endKey, keysBetween } from '../positions.js';
import { readView, requireGroup } from './lookup.js';
import { pageOf } from './paging.js';
import { place, topPlaced } from './placement.js';
import { limit, writeStructure } from './write.js';

/**
 * The section groups of a site (a menu of sections in the header): listed, added, changed, deleted and moved, and
 * sections put in and taken out of them.
 */

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
