import type {
  SitePosition,
  SiteItemPointer,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteStructure,
} from '../../../../shared/contract';

/**
 * The site structure as the editor sees it: lists of siblings (the top level, a group's sections, a section's
 * site spaces), each item knowing its pointer for the sort endpoint. Reordering only ever happens among siblings,
 * as on the server.
 */

export type StructureNode =
  | { kind: 'site-section-group'; group: SiteSectionGroup; sections: StructureNode[] }
  | { kind: 'site-section'; section: SiteSection; siteSpaces: StructureNode[] }
  | { kind: 'site-space'; siteSpace: SiteSpace };

export const isGroup = (item: SiteSection | SiteSectionGroup): item is SiteSectionGroup =>
  item.object === 'site-section-group';

export function pointerOf(node: StructureNode): SiteItemPointer {
  const id =
    node.kind === 'site-section-group'
      ? node.group.id
      : node.kind === 'site-section'
        ? node.section.id
        : node.siteSpace.id;
  return { type: node.kind, id };
}

export function keyOf(pointer: SiteItemPointer): string {
  return `${pointer.type}:${pointer.id}`;
}

const siteSpaceNode = (siteSpace: SiteSpace): StructureNode => ({ kind: 'site-space', siteSpace });
const sectionNode = (section: SiteSection): StructureNode => ({
  kind: 'site-section',
  section,
  siteSpaces: section.siteSpaces.map(siteSpaceNode),
});

/** The top-level siblings, each with its children. */
export function structureNodes(structure: SiteStructure): StructureNode[] {
  if (structure.type === 'siteSpaces') return structure.structure.map(siteSpaceNode);
  return structure.structure.map((item) =>
    isGroup(item)
      ? { kind: 'site-section-group', group: item, sections: item.sections.map(sectionNode) }
      : sectionNode(item),
  );
}

/** Every section, in reading order (groups' sections where their group is). */
export function allSections(structure: SiteStructure): SiteSection[] {
  if (structure.type === 'siteSpaces') return [];
  return structure.structure.flatMap((item) => (isGroup(item) ? item.sections : [item]));
}

/** Every site space, in reading order. */
export function allSiteSpaces(structure: SiteStructure): SiteSpace[] {
  if (structure.type === 'siteSpaces') return structure.structure;
  return allSections(structure).flatMap((section) => section.siteSpaces);
}

export function allGroups(structure: SiteStructure): SiteSectionGroup[] {
  if (structure.type === 'siteSpaces') return [];
  return structure.structure.filter(isGroup);
}

/**
 * The sort body that puts `item` at index `to` among `siblings` (indexes counted without the item itself):
 * after the sibling before that place and before the one after it, as the sort endpoint wants.
 */
export function positionAt(siblings: SiteItemPointer[], item: SiteItemPointer, to: number): SitePosition {
  const others = siblings.filter((s) => keyOf(s) !== keyOf(item));
  const index = Math.max(0, Math.min(to, others.length));
  const after = others[index - 1];
  const before = others[index];
  return { ...(after ? { after } : {}), ...(before ? { before } : {}) };
}

/** Where a drop on sibling `over` (its upper or lower half) puts an item now at `from`; counted without it. */
export function dropIndex(from: number, over: number, half: 'before' | 'after'): number {
  const insert = half === 'before' ? over : over + 1;
  return from < insert ? insert - 1 : insert;
}

/** Moves one item of `items` to where `position` says (the optimistic copy of what the server does). */
function placeIn<T>(items: T[], pointer: (item: T) => SiteItemPointer, item: SiteItemPointer, position: SitePosition) {
  const from = items.findIndex((x) => keyOf(pointer(x)) === keyOf(item));
  if (from < 0) return undefined;
  const moved = items[from]!;
  const others = items.filter((_, i) => i !== from);
  const find = (p: SiteItemPointer) => others.findIndex((x) => keyOf(pointer(x)) === keyOf(p));
  let at = others.length;
  if (position.before && find(position.before) >= 0) at = find(position.before);
  else if (position.after && find(position.after) >= 0) at = find(position.after) + 1;
  return [...others.slice(0, at), moved, ...others.slice(at)];
}

const sectionPointer = (s: SiteSection): SiteItemPointer => ({ type: 'site-section', id: s.id });
const siteSpacePointer = (s: SiteSpace): SiteItemPointer => ({ type: 'site-space', id: s.id });
const topPointer = (s: SiteSection | SiteSectionGroup): SiteItemPointer =>
  isGroup(s) ? { type: 'site-section-group', id: s.id } : sectionPointer(s);

/** The structure with `item` moved among its siblings; unchanged when it is not found. */
export function applySort(structure: SiteStructure, item: SiteItemPointer, position: SitePosition): SiteStructure {
  const section = (s: SiteSection): SiteSection => {
    if (item.type !== 'site-space') return s;
    const moved = placeIn(s.siteSpaces, siteSpacePointer, item, position);
    return moved ? { ...s, siteSpaces: moved } : s;
  };
  if (structure.type === 'siteSpaces') {
    if (item.type !== 'site-space') return structure;
    return {
      ...structure,
      structure: placeIn(structure.structure, siteSpacePointer, item, position) ?? structure.structure,
    };
  }
  const top = placeIn(structure.structure, topPointer, item, position) ?? structure.structure;
  return {
    ...structure,
    structure: top.map((entry) => {
      if (!isGroup(entry)) return section(entry);
      const sections = (placeIn(entry.sections, sectionPointer, item, position) ?? entry.sections).map(section);
      return { ...entry, sections, children: sections };
    }),
  };
}
