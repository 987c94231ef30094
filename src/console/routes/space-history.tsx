import { createRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { SpaceHistory } from '../features/history/components/space-history';
import { spaceRoute, useSpaceDocumentTitle } from './space';

/** `/o/$organizationId/spaces/$spaceId/history`: the space's revisions, newest first. */
export const spaceHistoryRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'history',
  component: SpaceHistoryPage,
});

function SpaceHistoryPage() {
  const { organizationId, spaceId } = spaceHistoryRoute.useParams();
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('History')}</DocumentTitle>
      <SpaceHistory organizationId={organizationId} spaceId={spaceId} />
    </>
  );
}
