import { createRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { collectionsQueryOptions } from '../features/content/api/get-collections';
import { spacesQueryOptions } from '../features/content/api/get-spaces';
import { OrganizationContent } from '../features/content/components/organization-content';
import { useOrganization } from '../features/organizations/api/get-organization';
import { organizationRoute } from './organization';

export const organizationHomeRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: '/',
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(collectionsQueryOptions(params.organizationId)),
      context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId)),
    ]),
  component: OrganizationHome,
});

function OrganizationHome() {
  const { organizationId } = organizationHomeRoute.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{organization.title}</DocumentTitle>
      <OrganizationContent organizationId={organizationId} canCreate={organization.permissions.createContent} />
    </>
  );
}
