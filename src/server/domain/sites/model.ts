import type { Executor } from '../../storage/db.js';
import * as repo from '../../storage/repos/sites.js';
import type { SiteRow, SectionRow, SectionGroupRow, SiteSpaceRow } from '../../storage/repos/sites.js';

/**
 * A site's structure as read from the database: every group, section and site space, each list in position
 * order. Sections with a group are ordered within it; sections without one share the top-level order with the
 * groups. A site with sections has all its site spaces in sections; one without has them at its root.
 *
 * Defaults are pointers on the parent; the effective default is the pointer when it names an existing child,
 * otherwise the first child. So whenever a parent has children, exactly one of them is its default.
 */
export interface Structure {
  groups: SectionGroupRow[];
  sections: SectionRow[];
  siteSpaces: SiteSpaceRow[];
}

export async function readStructure(db: Executor, siteId: string): Promise<Structure> {
  const [groups, sections, siteSpaces] = await Promise.all([
    repo.listGroups(db, siteId),
    repo.listSections(db, siteId),
    repo.listSiteSpaces(db, siteId),
  ]);
  return { groups, sections, siteSpaces };
}

export type TopItem = { kind: 'section'; row: SectionRow } | { kind: 'group'; row: SectionGroupRow };

const byPosition = (a: { position: string; id: string }, b: { position: string; id: string }) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Top-level items (ungrouped sections and groups) in order. */
export function topItems(s: Structure): TopItem[] {
  const items: Array<TopItem & { position: string; id: string }> = [
    ...s.sections.filter((x) => x.group_id === null).map((row) => ({ kind: 'section' as const, row, ...row })),
    ...s.groups.map((row) => ({ kind: 'group' as const, row, ...row })),
  ];
  return items.sort(byPosition).map(({ kind, row }) => ({ kind, row }) as TopItem);
}

export function groupSections(s: Structure, groupId: string): SectionRow[] {
  return s.sections.filter((x) => x.group_id === groupId);
}

/** Every section, in the order a reader meets them (a group's sections where the group is). */
export function orderedSections(s: Structure): SectionRow[] {
  return topItems(s).flatMap((item) => (item.kind === 'section' ? [item.row] : groupSections(s, item.row.id)));
}

export function siteSpacesIn(s: Structure, sectionId: string | null): SiteSpaceRow[] {
  return s.siteSpaces.filter((x) => x.section_id === sectionId);
}

/** Site spaces in the order a reader meets them. */
export function orderedSiteSpaces(s: Structure): SiteSpaceRow[] {
  if (s.sections.length === 0) return siteSpacesIn(s, null);
  return orderedSections(s).flatMap((section) => siteSpacesIn(s, section.id));
}

function pick<T extends { id: string }>(pointer: string | null, children: T[]): T | undefined {
  return children.find((c) => c.id === pointer) ?? children[0];
}

export function defaultSection(site: SiteRow, s: Structure, among = orderedSections(s)): SectionRow | undefined {
  return pick(site.default_section_id, among);
}

/** The default site space of a section, or of the site's root when `section` is null. */
export function defaultSiteSpace(
  site: SiteRow,
  s: Structure,
  section: SectionRow | null,
  among = siteSpacesIn(s, section?.id ?? null),
): SiteSpaceRow | undefined {
  return pick(section ? section.default_site_space_id : site.default_site_space_id, among);
}

/** Whether `ss` is the default of its parent. */
export function isDefaultSiteSpace(site: SiteRow, s: Structure, ss: SiteSpaceRow): boolean {
  const section = ss.section_id ? (s.sections.find((x) => x.id === ss.section_id) ?? null) : null;
  return defaultSiteSpace(site, s, section)?.id === ss.id;
}

/** A lower-case path segment from a title ("Getting Started!" → "getting-started"), or `fallback`. */
export function slugify(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** `base`, or `base-2`, `base-3`... : the first that no sibling uses. */
export function uniquePath(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
