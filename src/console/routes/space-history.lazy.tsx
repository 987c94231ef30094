import { DocumentTitle } from '../components/ui/page';
import { SpaceHistory } from '../features/history/components/space-history';
import { useSpaceDocumentTitle } from './space';
import { spaceHistoryRoute } from './space-history';

export function SpaceHistoryPage() {
  const { organizationId, spaceId } = spaceHistoryRoute.useParams();
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('History')}</DocumentTitle>
      <SpaceHistory organizationId={organizationId} spaceId={spaceId} />
    </>
  );
}
