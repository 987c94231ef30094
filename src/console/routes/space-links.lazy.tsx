import { DocumentTitle } from '../components/ui/page';
import { LinksReport } from '../features/links/components/links-report';
import { useSpaceDocumentTitle } from './space';
import { spaceLinksRoute } from './space-links';

export function SpaceLinksPage() {
  const { organizationId, spaceId } = spaceLinksRoute.useParams();
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('Links')}</DocumentTitle>
      <LinksReport organizationId={organizationId} spaceId={spaceId} />
    </>
  );
}
