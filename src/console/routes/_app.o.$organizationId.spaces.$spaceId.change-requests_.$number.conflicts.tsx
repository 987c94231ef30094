import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { useChangeRequest } from '../features/change-requests/api/get-change-request';
import { changeRequestPagesQueryOptions } from '../features/change-requests/api/get-change-request-pages';
import { conflictsQueryOptions } from '../features/change-requests/api/get-conflicts';
import { readOnlyReason } from '../features/change-requests/components/change-request-editor';
import { ConflictsScreen } from '../features/change-requests/components/conflicts-screen';
import { useSpace } from '../features/content/api/get-space';
import { orNotFound } from './-not-found';
import { useChangeRequestDocumentTitle } from './-change-request';

/** `…/change-requests/$number/conflicts`: the conflicts of the pending update from the space. */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/change-requests_/$number/conflicts')({
  loader: ({ context, params }) =>
    orNotFound(
      Promise.all([
        context.queryClient.ensureQueryData(conflictsQueryOptions(params.spaceId, params.number)),
        context.queryClient.ensureQueryData(changeRequestPagesQueryOptions(params.spaceId, params.number)),
      ]),
    ),
  component: ConflictsPage,
});

function ConflictsPage() {
  const { organizationId, spaceId, number } = Route.useParams();
  const space = useSpace(spaceId);
  const changeRequest = useChangeRequest(spaceId, number);
  return (
    <>
      <DocumentTitle>{useChangeRequestDocumentTitle('Conflicts')}</DocumentTitle>
      <ConflictsScreen
        organizationId={organizationId}
        spaceId={spaceId}
        number={number}
        readOnly={readOnlyReason(changeRequest, space.editMode === 'locked')}
      />
    </>
  );
}
