import { createFileRoute } from '@tanstack/react-router';
import { SITE_TITLE_MAX } from '../../shared/contract/constants';
import { DocumentTitle } from '../components/ui/page';
import { spacesQueryOptions, useSpaces } from '../features/content/api/get-spaces';
import { useOrganization } from '../features/organizations/api/get-organization';
import { sitesQueryOptions } from '../features/sites/api/get-sites';
import { SitesList } from '../features/sites/components/sites-list';
import { boolean, id, searchParams, text } from './-url';

/** `?title=&published=true|false&space=`: the list's filters (the API's own), dropped when not valid. */
const sitesSearch = searchParams<{ title: string; published: boolean; space: string }>({
  title: text(SITE_TITLE_MAX),
  published: boolean,
  space: id,
});

/** `/o/$organizationId/sites`: the organization's docs sites. */
export const Route = createFileRoute('/_app/o/$organizationId/sites')({
  validateSearch: sitesSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    // The list loads in place (its filters stay on screen); only the spaces, for the filter, are waited for.
    void context.queryClient.prefetchInfiniteQuery(sitesQueryOptions(params.organizationId, deps));
    return context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId));
  },
  component: SitesPage,
});

function SitesPage() {
  const { organizationId } = Route.useParams();
  const filters = Route.useSearch();
  const navigate = Route.useNavigate();
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
