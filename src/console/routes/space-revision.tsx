import { createRoute, Link } from '@tanstack/react-router';
import { pageParamsSchema, revisionParamsSchema } from '../../shared/contract';
import { buttonClass } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page';
import { EmptyState } from '../components/ui/states';
import { useSpace } from '../features/content/api/get-space';
import { revisionPageQueryOptions } from '../features/pages/api/get-revision-page';
import { revisionPagesQueryOptions } from '../features/pages/api/get-revision-pages';
import { PageNotFound, RevisionPages } from '../features/pages/components/space-pages';
import { orNotFound } from './not-found';
import { spaceRoute, useSpaceDocumentTitle } from './space';

/** `/o/$organizationId/spaces/$spaceId/revisions/$revisionId`: a past revision, as the server links it. */
export const spaceRevisionRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'revisions/$revisionId',
  params: { parse: (params) => revisionParamsSchema.parse(params) },
  loader: ({ context, params }) =>
    orNotFound(context.queryClient.ensureQueryData(revisionPagesQueryOptions(params.spaceId, params.revisionId))),
  component: RevisionHome,
  notFoundComponent: RevisionNotFound,
});

/** `/o/$organizationId/spaces/$spaceId/revisions/$revisionId/pages/$pageId`: a page of a past revision. */
export const spaceRevisionPageRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'revisions/$revisionId/pages/$pageId',
  params: { parse: (params) => ({ ...revisionParamsSchema.parse(params), ...pageParamsSchema.parse(params) }) },
  loader: ({ context, params }) =>
    orNotFound(
      Promise.all([
        context.queryClient.ensureQueryData(revisionPagesQueryOptions(params.spaceId, params.revisionId)),
        context.queryClient.ensureQueryData(revisionPageQueryOptions(params.spaceId, params.revisionId, params.pageId)),
      ]),
    ),
  component: RevisionPage,
  notFoundComponent: RevisionPageNotFound,
});

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

function RevisionHome() {
  const { revisionId } = spaceRevisionRoute.useParams();
  return <Revision revisionId={revisionId} />;
}

function RevisionPage() {
  const { revisionId, pageId } = spaceRevisionPageRoute.useParams();
  return <Revision revisionId={revisionId} pageId={pageId} />;
}

function RevisionNotFound() {
  const { organizationId, spaceId } = spaceRoute.useParams();
  return (
    <EmptyState
      title="Revision not found"
      action={
        <Link to="/o/$organizationId/spaces/$spaceId" params={{ organizationId, spaceId }} className={buttonClass()}>
          See the current version
        </Link>
      }
    >
      The link may be wrong, or the revision belongs to another space.
    </EmptyState>
  );
}

function RevisionPageNotFound() {
  const { organizationId, spaceId } = spaceRoute.useParams();
  return <PageNotFound organizationId={organizationId} spaceId={spaceId} />;
}
