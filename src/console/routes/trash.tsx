import { createRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { trashQueryOptions } from '../features/trash/api/get-trash';
import { TrashList } from '../features/trash/components/trash-list';
import { organizationRoute } from './organization';

export const trashRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'trash',
  loader: ({ context, params }) => context.queryClient.ensureQueryData(trashQueryOptions(params.organizationId)),
  component: TrashPage,
});

function TrashPage() {
  const { organizationId } = trashRoute.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`Trash · ${organization.title}`}</DocumentTitle>
      <TrashList organizationId={organizationId} />
    </>
  );
}
