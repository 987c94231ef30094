import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { listSitesQuerySchema } from '../../shared/contract';
import { DocumentTitle } from '../components/ui/page';
import { spacesQueryOptions, useSpaces } from '../features/content/api/get-spaces';
import { useOrganization } from '../features/organizations/api/get-organization';
import { sitesQueryOptions } from '../features/sites/api/get-sites';
import { SitesList } from '../features/sites/components/sites-list';
import { organizationRoute } from './organization';

/** `?title=&published=true|false&space=`: the list's filters (the API's own), dropped when not valid. */
const sitesSearchSchema = z.object({
  title: listSitesQuerySchema.shape.title.catch(undefined),
  published: z.boolean().optional().catch(undefined),
  space: listSitesQuerySchema.shape.space.catch(undefined),
});

/** `/o/$organizationId/sites`: the organization's docs sites. */
export const sitesRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'sites',
  validateSearch: sitesSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    // The list loads in place (its filters stay on screen); only the spaces, for the filter, are waited for.
    void context.queryClient.prefetchInfiniteQuery(sitesQueryOptions(params.organizationId, deps));
    return context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId));
  },
  component: SitesPage,
});

function SitesPage() {
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
