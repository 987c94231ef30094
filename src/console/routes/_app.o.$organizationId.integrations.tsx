import { createFileRoute } from '@tanstack/react-router';
import { INTEGRATION_CATEGORIES, INTEGRATION_SEARCH_MAX, INTEGRATION_TARGETS } from '../../shared/contract/constants';
import type { IntegrationFilters } from '../../shared/contract';
import { DocumentTitle } from '../components/ui/page';
import { installedQueryOptions } from '../features/integrations/api/get-integrations';
import { IntegrationsDirectory } from '../features/integrations/components/integrations-directory';
import { useOrganization } from '../features/organizations/api/get-organization';
import { oneOf, searchParams, text } from './-url';

/** `?search=&category=&target=`: the directory's filters, dropped when not valid. */
const directorySearch = searchParams<Pick<IntegrationFilters, 'search' | 'category' | 'target'>>({
  search: text(INTEGRATION_SEARCH_MAX),
  category: oneOf(INTEGRATION_CATEGORIES),
  target: oneOf(INTEGRATION_TARGETS),
});

/** `/o/$organizationId/integrations`: the integrations directory, and what is installed on the organization. */
export const Route = createFileRoute('/_app/o/$organizationId/integrations')({
  validateSearch: directorySearch,
  loader: ({ context, params }) => context.queryClient.prefetchQuery(installedQueryOptions(params.organizationId)),
  component: DirectoryPage,
});

function DirectoryPage() {
  const { organizationId } = Route.useParams();
  const filters = Route.useSearch();
  const navigate = Route.useNavigate();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`Integrations · ${organization.title}`}</DocumentTitle>
      <IntegrationsDirectory
        organizationId={organizationId}
        filters={filters}
        onFiltersChange={(next) => void navigate({ search: next, replace: true })}
      />
    </>
  );
}
