import { Link } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { useSpace } from '../features/content/api/get-space';
import { RevisionPages } from '../features/pages/components/space-pages';
import { spaceRoute, useSpaceDocumentTitle } from './space';
import { spaceRevisionRoute, spaceRevisionPageRoute } from './space-revision';

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

function Revision({ revisionId, pageId }: { revisionId: string; pageId?: string }) {
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

export function RevisionHome() {
  const { revisionId } = spaceRevisionRoute.useParams();
  return <Revision revisionId={revisionId} />;
}

export function RevisionPage() {
  const { revisionId, pageId } = spaceRevisionPageRoute.useParams();
  return <Revision revisionId={revisionId} pageId={pageId} />;
}
