import { createFileRoute } from '@tanstack/react-router';
import { CHANGE_REQUEST_STATUSES } from '../../shared/contract/constants';
import type { ChangeRequestStatus } from '../../shared/contract';
import { DocumentTitle } from '../components/ui/page';
import { changeRequestsQueryOptions } from '../features/change-requests/api/get-change-requests';
import { ChangeRequestList } from '../features/change-requests/components/change-request-list';
import { NewChangeRequestButton } from '../features/change-requests/components/start-change-request';
import { useSpace } from '../features/content/api/get-space';
import { useSpaceDocumentTitle } from './-space';
import { oneOf, searchParams } from './-url';

/** `?status=draft|merged|archived`; open, the default, leaves the URL bare. Anything else falls back to open. */
const listSearch = searchParams<{ status: Exclude<ChangeRequestStatus, 'open'> }>({
  status: oneOf(CHANGE_REQUEST_STATUSES.filter((status) => status !== 'open')),
});

/** `/o/$organizationId/spaces/$spaceId/change-requests`: the list, one tab per status. */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/change-requests')({
  validateSearch: listSearch,
  loaderDeps: ({ search }): { status: ChangeRequestStatus } => ({ status: search.status ?? 'open' }),
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureInfiniteQueryData(changeRequestsQueryOptions(params.spaceId, deps.status)),
  component: ChangeRequestsPage,
});

function ChangeRequestsPage() {
  const { organizationId, spaceId } = Route.useParams();
  const { status = 'open' } = Route.useSearch();
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
