/** An organization and one of its sites: what every call about a site needs. */
export interface SiteRef {
  organizationId: string;
  siteId: string;
}

export function sitesPath(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}/sites`;
}

/** `/orgs/{organizationId}/sites/{siteId}` followed by `rest` (e.g. `/sections`). */
export function sitePath({ organizationId, siteId }: SiteRef, rest = ''): string {
  return `${sitesPath(organizationId)}/${encodeURIComponent(siteId)}${rest}`;
}
