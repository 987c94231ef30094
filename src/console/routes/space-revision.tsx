import { createRoute, lazyRouteComponent, Link } from '@tanstack/react-router';
import { buttonClass } from '../components/ui/button';
import { EmptyState } from '../components/ui/states';
import { revisionPageQueryOptions } from '../features/pages/api/get-revision-page';
import { revisionPagesQueryOptions } from '../features/pages/api/get-revision-pages';
import { PageNotFound } from '../features/pages/components/page-not-found';
import { orNotFound } from './not-found';
import { spaceRoute } from './space';
import { idParams } from './url';

/** `/o/$organizationId/spaces/$spaceId/revisions/$revisionId`: a past revision, as the server links it. */
export const spaceRevisionRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'revisions/$revisionId',
  params: { parse: idParams('revisionId') },
  loader: ({ context, params }) =>
    orNotFound(context.queryClient.ensureQueryData(revisionPagesQueryOptions(params.spaceId, params.revisionId))),
  component: lazyRouteComponent(() => import('./space-revision.lazy'), 'RevisionHome'),
  notFoundComponent: RevisionNotFound,
});

/** `/o/$organizationId/spaces/$spaceId/revisions/$revisionId/pages/$pageId`: a page of a past revision. */
export const spaceRevisionPageRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'revisions/$revisionId/pages/$pageId',
  params: { parse: idParams('revisionId', 'pageId') },
  loader: ({ context, params }) =>
    orNotFound(
      Promise.all([
        context.queryClient.ensureQueryData(revisionPagesQueryOptions(params.spaceId, params.revisionId)),
        context.queryClient.ensureQueryData(revisionPageQueryOptions(params.spaceId, params.revisionId, params.pageId)),
      ]),
    ),
  component: lazyRouteComponent(() => import('./space-revision.lazy'), 'RevisionPage'),
  notFoundComponent: RevisionPageNotFound,
});

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
