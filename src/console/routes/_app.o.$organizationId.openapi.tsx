import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { specsQueryOptions } from '../features/openapi/api/get-specs';
import { SpecsList } from '../features/openapi/components/specs-list';
import { useOrganization } from '../features/organizations/api/get-organization';

/** `/o/$organizationId/openapi`: the organization's OpenAPI specifications. */
export const Route = createFileRoute('/_app/o/$organizationId/openapi')({
  loader: ({ context, params }) => context.queryClient.prefetchQuery(specsQueryOptions(params.organizationId)),
  component: SpecsPage,
});

function SpecsPage() {
  const { organizationId } = Route.useParams();
  const organization = useOrganization(organizationId);
  const navigate = Route.useNavigate();
  return (
    <>
      <DocumentTitle>{`API specifications · ${organization.title}`}</DocumentTitle>
      <SpecsList
        organizationId={organizationId}
        canCreate={organization.permissions.createOpenAPISpec}
        onOpenSpec={(specSlug) =>
          void navigate({ to: '/o/$organizationId/openapi/$specSlug', params: { organizationId, specSlug } })
        }
      />
    </>
  );
}
