import { createFileRoute } from '@tanstack/react-router';
import { revisionPageQueryOptions } from '../features/pages/api/get-revision-page';
import { revisionPagesQueryOptions } from '../features/pages/api/get-revision-pages';
import { PageNotFound } from '../features/pages/components/page-not-found';
import { orNotFound } from './-not-found';
import { Revision } from './-revision';
import { spaceRoute } from './-space';
import { idParams } from './-url';

/** `/o/$organizationId/spaces/$spaceId/revisions/$revisionId/pages/$pageId`: a page of a past revision. */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/revisions_/$revisionId/pages/$pageId')({
  params: { parse: idParams('revisionId', 'pageId') },
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

function RevisionPage() {
  const { revisionId, pageId } = Route.useParams();
  return <Revision revisionId={revisionId} pageId={pageId} />;
}

function RevisionPageNotFound() {
  const { organizationId, spaceId } = spaceRoute.useParams();
  return <PageNotFound organizationId={organizationId} spaceId={spaceId} />;
}
