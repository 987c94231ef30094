import type {
  ShareLink,
  Site,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteStructure,
} from '../../shared/contract/sites.js';
import type { Role } from '../../shared/contract/common.js';
import type { SiteRow, SectionRow, SectionGroupRow, SiteSpaceRow, ShareLinkRow } from '../storage/repos/sites.js';
import type { SpaceRow } from '../storage/repos/spaces.js';
import { sitePermissions } from '../domain/sites/policy.js';
import {
  type Structure,
  defaultSection,
  groupSections,
  isDefaultSiteSpace,
  siteSpacesIn,
  topItems,
} from '../domain/sites/model.js';
import { presentSpace } from './content.js';
import { publishedSiteUrl, type Urls } from '../lib/urls.js';

export function presentSite(urls: Urls, row: SiteRow, siteSpaces: number, role: Role | null): Site {
  return {
    object: 'site',
    id: row.id,
    type: row.type as Site['type'],
    appliedType: row.type as Site['type'],
    title: row.title,
    ...(row.basename !== null ? { basename: row.basename } : {}),
    ...(row.proxy !== null ? { proxy: { origin: row.proxy, target: publishedSiteUrl(urls.base, row.id) } } : {}),
    visibility: row.visibility as Site['visibility'],
    defaultLevel: 'inherit',
    published: row.published === 1,
    siteSpaces,
    createdAt: row.created_at,
    adaptiveContent: { enabled: row.adaptive_enabled === 1 },
    agentsContext: row.agents_context as Site['agentsContext'],
    features: [],
    permissions: sitePermissions(role),
    urls: {
      location: urls.api(`/orgs/${row.organization_id}/sites/${row.id}`),
      app: urls.app(`/o/${row.organization_id}/sites/${row.id}`),
      ...(row.published === 1 ? { published: publishedSiteUrl(urls.base, row.id) } : {}),
    },
  };
}

/** Everything the structure's presenters need: the site, its structure, its spaces and the caller's levels. */
export interface StructureView {
  urls: Urls;
  site: SiteRow;
  structure: Structure;
  spaces: Map<string, SpaceRow>;
  spaceLevel: (space: SpaceRow) => Role | null;
  /** Whether the caller sees this site space (they can read its space): the others are left out of every answer. */
  visible: (row: SiteSpaceRow) => boolean;
  /** Root of the published site (with the share key when one was given); undefined when not published. */
  publishedRoot?: string;
  /** Whether a section is shown at all (a visitor's view leaves out those their claims hide); all when absent. */
  visibleSection?: (row: SectionRow) => boolean;
}

function sectionUrl(v: StructureView, section: SectionRow): string | undefined {
  return v.publishedRoot ? `${v.publishedRoot}/${section.path}` : undefined;
}

export function presentSiteSpace(v: StructureView, row: SiteSpaceRow): SiteSpace {
  const space = v.spaces.get(row.space_id)!;
  const section = row.section_id ? v.structure.sections.find((s) => s.id === row.section_id) : undefined;
  const parentUrl = section ? sectionUrl(v, section) : v.publishedRoot;
  return {
    object: 'site-space',
    id: row.id,
    path: row.path,
    ...(row.section_id ? { section: row.section_id } : {}),
    space: presentSpace(v.urls, space, v.spaceLevel(space)),
    title: space.title,
    default: isDefaultSiteSpace(v.site, v.structure, row),
    ...(row.condition !== null ? { condition: row.condition } : {}),
    urls: parentUrl ? { published: `${parentUrl}/${row.path}` } : {},
  };
}

export function presentSection(v: StructureView, row: SectionRow): SiteSection {
  const published = sectionUrl(v, row);
  return {
    object: 'site-section',
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    default: defaultSection(v.site, v.structure)?.id === row.id,
    path: row.path,
    ...(row.condition !== null ? { condition: row.condition } : {}),
    ...(row.group_id !== null ? { sectionGroup: row.group_id } : {}),
    ...(row.icon !== null ? { icon: row.icon } : {}),
    siteSpaces: siteSpacesIn(v.structure, row.id)
      .filter(v.visible)
      .map((ss) => presentSiteSpace(v, ss)),
    urls: published ? { published } : {},
  };
}

export function presentSectionGroup(v: StructureView, row: SectionGroupRow): SiteSectionGroup {
  const sections = groupSections(v.structure, row.id)
    .filter((s) => v.visibleSection?.(s) ?? true)
    .map((s) => presentSection(v, s));
  return {
    object: 'site-section-group',
    id: row.id,
    title: row.title,
    ...(row.icon !== null ? { icon: row.icon } : {}),
    sections,
    children: sections,
  };
}

export function presentStructure(v: StructureView): SiteStructure {
  if (v.structure.sections.length === 0) {
    return {
      type: 'siteSpaces',
      structure: siteSpacesIn(v.structure, null)
        .filter(v.visible)
        .map((ss) => presentSiteSpace(v, ss)),
    };
  }
  return {
    type: 'sections',
    structure: topItems(v.structure).flatMap((item): Array<SiteSection | SiteSectionGroup> => {
      if (item.kind === 'section') return v.visibleSection?.(item.row) === false ? [] : [presentSection(v, item.row)];
      const group = presentSectionGroup(v, item.row);
      return v.visibleSection && group.sections.length === 0 ? [] : [group];
    }),
  };
}

export function presentShareLink(urls: Urls, site: SiteRow, row: ShareLinkRow): ShareLink {
  return {
    object: 'share-link',
    id: row.id,
    createdAt: row.created_at,
    ...(row.name ? { name: row.name } : {}),
    active: row.active === 1,
    urls: { published: publishedSiteUrl(urls.base, site.id, row.key) },
  };
}
