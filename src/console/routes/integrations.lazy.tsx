import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { IntegrationsDirectory } from '../features/integrations/components/integrations-directory';
import { IntegrationView } from '../features/integrations/components/integration-view';
import { integrationsRoute, integrationRoute } from './integrations';

export function DirectoryPage() {
  const { organizationId } = integrationsRoute.useParams();
  const filters = integrationsRoute.useSearch();
  const navigate = integrationsRoute.useNavigate();
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

export function IntegrationPage() {
  const { organizationId, integrationName } = integrationRoute.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`${integrationName} · Integrations · ${organization.title}`}</DocumentTitle>
      <IntegrationView
        organizationId={organizationId}
        name={integrationName}
        canInstall={organization.permissions.admin}
      />
    </>
  );
}
