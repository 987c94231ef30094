import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { trashQueryOptions } from '../features/trash/api/get-trash';
import { TrashList } from '../features/trash/components/trash-list';

export const Route = createFileRoute('/_app/o/$organizationId/trash')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(trashQueryOptions(params.organizationId)),
  component: TrashPage,
});

function TrashPage() {
  const { organizationId } = Route.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`Trash · ${organization.title}`}</DocumentTitle>
      <TrashList organizationId={organizationId} />
    </>
  );
}
