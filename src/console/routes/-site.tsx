import { getRouteApi } from '@tanstack/react-router';
import { useOrganization } from '../features/organizations/api/get-organization';
import { useSite } from '../features/sites/api/get-site';

/** The site's route (`_app.o.$organizationId.sites_.$siteId.tsx`), read from its tabs. */
const siteRoute = getRouteApi('/_app/o/$organizationId/sites_/$siteId');

/** "Structure · Docs · Acme": the tab, the site and the organization. */
export function useSiteDocumentTitle(part: string): string {
  const params = siteRoute.useParams();
  const organization = useOrganization(params.organizationId);
  const site = useSite(params);
  return [part, site.title, organization.title].join(' · ');
}
