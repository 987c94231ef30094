import { DocumentTitle } from '../components/ui/page';
import { ChangeRequestList } from '../features/change-requests/components/change-request-list';
import { NewChangeRequestButton } from '../features/change-requests/components/start-change-request';
import { useSpace } from '../features/content/api/get-space';
import { useSpaceDocumentTitle } from './space';
import { changeRequestsRoute } from './change-requests';

export function ChangeRequestsPage() {
  const { organizationId, spaceId } = changeRequestsRoute.useParams();
  const { status = 'open' } = changeRequestsRoute.useSearch();
  const space = useSpace(spaceId);
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('Change requests')}</DocumentTitle>
      <ChangeRequestList
        organizationId={organizationId}
        spaceId={spaceId}
        status={status}
        createAction={
          <NewChangeRequestButton
            organizationId={organizationId}
            spaceId={spaceId}
            canEdit={space.permissions.edit}
            locked={space.editMode === 'locked'}
          />
        }
      />
    </>
  );
}
