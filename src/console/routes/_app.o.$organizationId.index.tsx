import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { collectionsQueryOptions } from '../features/content/api/get-collections';
import { spacesQueryOptions } from '../features/content/api/get-spaces';
import { OrganizationContent } from '../features/content/components/organization-content';
import { useOrganization } from '../features/organizations/api/get-organization';

export const Route = createFileRoute('/_app/o/$organizationId/')({
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(collectionsQueryOptions(params.organizationId)),
      context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId)),
    ]),
  component: OrganizationHome,
});

function OrganizationHome() {
  const { organizationId } = Route.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{organization.title}</DocumentTitle>
      <OrganizationContent organizationId={organizationId} canCreate={organization.permissions.createContent} />
    </>
  );
}
