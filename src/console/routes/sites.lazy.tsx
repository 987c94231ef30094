import { DocumentTitle } from '../components/ui/page';
import { useSpaces } from '../features/content/api/get-spaces';
import { useOrganization } from '../features/organizations/api/get-organization';
import { SitesList } from '../features/sites/components/sites-list';
import { sitesRoute } from './sites';

export function SitesPage() {
  const { organizationId } = sitesRoute.useParams();
  const filters = sitesRoute.useSearch();
  const navigate = sitesRoute.useNavigate();
  const organization = useOrganization(organizationId);
  const spaces = useSpaces(organizationId);
  return (
    <>
      <DocumentTitle>{`Sites · ${organization.title}`}</DocumentTitle>
      <SitesList
        organizationId={organizationId}
        filters={filters}
        onFiltersChange={(next) => void navigate({ search: next, replace: true })}
        spaces={spaces}
        canCreate={organization.permissions.createContent}
        onOpenSite={(siteId) =>
          void navigate({ to: '/o/$organizationId/sites/$siteId/structure', params: { organizationId, siteId } })
        }
      />
    </>
  );
}
