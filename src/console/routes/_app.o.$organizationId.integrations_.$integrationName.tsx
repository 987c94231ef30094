import { createFileRoute } from '@tanstack/react-router';
import { DOTS_ONLY, INTEGRATION_NAME_MAX, INTEGRATION_NAME_PATTERN } from '../../shared/contract/constants';
import { DocumentTitle } from '../components/ui/page';
import { installedQueryOptions, integrationQueryOptions } from '../features/integrations/api/get-integrations';
import { IntegrationView } from '../features/integrations/components/integration-view';
import { useOrganization } from '../features/organizations/api/get-organization';
import { ApiError } from '../lib/api-client';
import { pathParams } from './-url';

/** An integration's name as the contract allows it (letters, digits, `-_.`, not dots only); any other is not found. */
function integrationParams(params: { integrationName: string }) {
  const { integrationName } = pathParams({ integrationName: INTEGRATION_NAME_MAX })(params);
  if (!INTEGRATION_NAME_PATTERN.test(integrationName) || DOTS_ONLY.test(integrationName)) {
    throw new ApiError(404, 'Not found.');
  }
  return { integrationName };
}

/** `/o/$organizationId/integrations/$integrationName`: one integration and its installation here. */
export const Route = createFileRoute('/_app/o/$organizationId/integrations_/$integrationName')({
  params: {
    parse: integrationParams,
    stringify: (params) => ({ integrationName: params.integrationName }),
  },
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(integrationQueryOptions(params.integrationName)),
      context.queryClient.prefetchQuery(installedQueryOptions(params.organizationId)),
    ]),
  component: IntegrationPage,
});

function IntegrationPage() {
  const { organizationId, integrationName } = Route.useParams();
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
