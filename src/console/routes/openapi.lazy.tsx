import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { SpecsList } from '../features/openapi/components/specs-list';
import { SpecView } from '../features/openapi/components/spec-view';
import { openApiSpecsRoute, openApiSpecRoute } from './openapi';

export function SpecsPage() {
  const { organizationId } = openApiSpecsRoute.useParams();
  const organization = useOrganization(organizationId);
  const navigate = openApiSpecsRoute.useNavigate();
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

export function SpecPage() {
  const { organizationId, specSlug } = openApiSpecRoute.useParams();
  const search = openApiSpecRoute.useSearch();
  const navigate = openApiSpecRoute.useNavigate();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`${specSlug} · API specifications · ${organization.title}`}</DocumentTitle>
      <SpecView
        organizationId={organizationId}
        slug={specSlug}
        state={search}
        onStateChange={(next) => void navigate({ search: next, replace: true })}
        onDeleted={() => void navigate({ to: '/o/$organizationId/openapi', params: { organizationId } })}
      />
    </>
  );
}
