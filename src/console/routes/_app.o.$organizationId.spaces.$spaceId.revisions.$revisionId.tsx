import { createFileRoute, Link } from '@tanstack/react-router';
import { buttonClass } from '../components/ui/button';
import { EmptyState } from '../components/ui/states';
import { revisionPagesQueryOptions } from '../features/pages/api/get-revision-pages';
import { orNotFound } from './-not-found';
import { Revision } from './-revision';
import { spaceRoute } from './-space';
import { idParams } from './-url';

/** `/o/$organizationId/spaces/$spaceId/revisions/$revisionId`: a past revision, as the server links it. */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/revisions/$revisionId')({
  params: { parse: idParams('revisionId') },
  loader: ({ context, params }) =>
    orNotFound(context.queryClient.ensureQueryData(revisionPagesQueryOptions(params.spaceId, params.revisionId))),
  component: RevisionHome,
  notFoundComponent: RevisionNotFound,
});

function RevisionHome() {
  const { revisionId } = Route.useParams();
  return <Revision revisionId={revisionId} />;
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
