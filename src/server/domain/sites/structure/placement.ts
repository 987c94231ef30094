import type { ServiceContext } from '../../context.js';
import type { Tx } from '../../../storage/db.js';
import * as repo from '../../../storage/repos/sites.js';
import type { SectionRow } from '../../../storage/repos/sites.js';
import { NotFoundError } from '../../errors.js';
import type { SiteItemPointer, SitePosition } from '../../../../shared/contract/sites.js';
import { type Structure, groupSections, siteSpacesIn, topItems } from '../model.js';
import { placeAmong, type Placed } from '../positions.js';
import { requireGroup, requireSection, requireSiteSpace, requireVisibleSiteSpace } from './lookup.js';
import { writeStructure } from './write.js';

/**
 * Placement: where an item of a site's structure sits among its siblings (top-level sections and groups, a group's
 * sections, a parent's site spaces), and moving it there (positions.ts computes the keys), as a move of one item or
 * the structure's sort.
 */

export function topPlaced(structure: Structure): Placed[] {
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

export function siteSpaceSiblings(structure: Structure, sectionId: string | null): Placed[] {
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
export async function place(
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
