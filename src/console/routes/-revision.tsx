import { Link } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { useSpace } from '../features/content/api/get-space';
import { RevisionPages } from '../features/pages/components/space-pages';
import { spaceRoute, useSpaceDocumentTitle } from './-space';

function RevisionNotice() {
  const { organizationId, spaceId } = spaceRoute.useParams();
  return (
    <p className="notice notice-info revision-notice" role="note">
      <span>You are reading a past revision of this space: it does not change.</span>
      <Link to="/o/$organizationId/spaces/$spaceId" params={{ organizationId, spaceId }}>
        See the current version
      </Link>
    </p>
  );
}

export function Revision({ revisionId, pageId }: { revisionId: string; pageId?: string }) {
  const { organizationId, spaceId } = spaceRoute.useParams();
  const space = useSpace(spaceId);
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('Past revision')}</DocumentTitle>
      <RevisionNotice />
      <RevisionPages
        organizationId={organizationId}
        spaceId={spaceId}
        spaceTitle={space.title || 'Untitled'}
        revisionId={revisionId}
        pageId={pageId}
      />
    </>
  );
}
