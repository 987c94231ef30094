import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { LinksReport } from '../features/links/components/links-report';
import { useSpaceDocumentTitle } from './-space';

/** `/o/$organizationId/spaces/$spaceId/links`: the links report of the space's current content. */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/links')({
  component: SpaceLinksPage,
});

function SpaceLinksPage() {
  const { organizationId, spaceId } = Route.useParams();
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('Links')}</DocumentTitle>
      <LinksReport organizationId={organizationId} spaceId={spaceId} />
    </>
  );
}
