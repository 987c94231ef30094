import type { SectionRow, SiteSpaceRow } from '../../../storage/repos/sites.js';
import type { Structure } from '../model.js';
import type { Visible } from './visitor-access.js';

/** Published URLs of site spaces, under the site's root as a visitor reaches it (presenters/site.ts builds roots). */

/** The published URL of a site space: under its section's path on a site with sections. */
export function siteSpaceUrlIn(root: string, section: SectionRow | undefined, ss: SiteSpaceRow): string {
  return section ? `${root}/${section.path}/${ss.path}` : `${root}/${ss.path}`;
}

/** The published URL of a page of a site space, by its path (`''`: the site space's first page). */
export function pageUrlIn(siteSpaceUrl: string, pagePath: string): string {
  return pagePath ? `${siteSpaceUrl}/${pagePath}` : siteSpaceUrl;
}

/** The published URL of the first site space this visitor sees that shows `spaceId`. */
export function siteSpaceUrlOf(
  structure: Structure,
  visible: Visible,
  root: string,
  spaceId: string,
): string | undefined {
  for (const [parent, siteSpaces] of visible.siteSpaces) {
    const ss = siteSpaces.find((x) => x.space_id === spaceId);
    if (!ss) continue;
    const section = parent ? structure.sections.find((x) => x.id === parent) : undefined;
    return siteSpaceUrlIn(root, section, ss);
  }
  return undefined;
}
