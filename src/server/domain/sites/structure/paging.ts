import type { SectionRow, SiteSpaceRow } from '../../../storage/repos/sites.js';
import { decodeCursor, encodeCursor } from '../../../storage/pagination.js';
import type { Structure } from '../model.js';

/**
 * Pages of the lists of a site's structure. The structure is read whole: it is bounded by SITE_STRUCTURE_MAX; the
 * cursor is the last item's sort key.
 */

export function pageOf<T>(
  items: T[],
  key: (item: T) => string[],
  arity: number,
  page: string | undefined,
  take: number,
) {
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

export function sectionKey(structure: Structure, s: SectionRow): string[] {
  if (s.group_id === null) return [s.position, s.id, '', ''];
  const group = structure.groups.find((g) => g.id === s.group_id)!;
  return [group.position, group.id, s.position, s.id];
}

export function siteSpaceKey(structure: Structure, ss: SiteSpaceRow): string[] {
  const section = ss.section_id ? structure.sections.find((s) => s.id === ss.section_id) : undefined;
  return [...(section ? sectionKey(structure, section) : ['', '', '', '']), ss.position, ss.id];
}

export const SECTION_KEY_ARITY = 4;
