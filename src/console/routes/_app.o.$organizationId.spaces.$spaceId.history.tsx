import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { SpaceHistory } from '../features/history/components/space-history';
import { useSpaceDocumentTitle } from './-space';

/** `/o/$organizationId/spaces/$spaceId/history`: the space's revisions, newest first. */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/history')({
  component: SpaceHistoryPage,
});

function SpaceHistoryPage() {
  const { organizationId, spaceId } = Route.useParams();
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('History')}</DocumentTitle>
      <SpaceHistory organizationId={organizationId} spaceId={spaceId} />
    </>
  );
}
