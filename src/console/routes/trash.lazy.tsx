import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { TrashList } from '../features/trash/components/trash-list';
import { trashRoute } from './trash';

export function TrashPage() {
  const { organizationId } = trashRoute.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`Trash · ${organization.title}`}</DocumentTitle>
      <TrashList organizationId={organizationId} />
    </>
  );
}
