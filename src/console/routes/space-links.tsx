import { createRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { LinksReport } from '../features/links/components/links-report';
import { spaceRoute, useSpaceDocumentTitle } from './space';

/** `/o/$organizationId/spaces/$spaceId/links`: the links report of the space's current content. */
export const spaceLinksRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'links',
  component: SpaceLinksPage,
});

function SpaceLinksPage() {
  const { organizationId, spaceId } = spaceLinksRoute.useParams();
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('Links')}</DocumentTitle>
      <LinksReport organizationId={organizationId} spaceId={spaceId} />
    </>
  );
}
