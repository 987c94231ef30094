import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { useUser } from '../features/auth/api/get-user';
import { changesQueryOptions } from '../features/change-requests/api/get-changes';
import { ReviewScreen } from '../features/change-requests/components/review-screen';
import { useSpace } from '../features/content/api/get-space';
import { orNotFound } from './-not-found';
import { useChangeRequestDocumentTitle } from './-change-request';
import { oneOf, searchParams } from './-url';

const reviewSearch = searchParams<{ view: 'inline' }>({ view: oneOf(['inline'] as const) });

/** `…/change-requests/$number`: the review screen. `?view=inline` shows word diffs instead of side by side. */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/change-requests_/$number/')({
  validateSearch: reviewSearch,
  // Runs beside the parent's loader: an unknown change request is "not found" here too, never an error the
  // router logs while the parent's not-found wins the race.
  loader: ({ context, params }) =>
    orNotFound(context.queryClient.ensureQueryData(changesQueryOptions(params.spaceId, params.number))),
  component: ReviewPage,
});

function ReviewPage() {
  const { organizationId, spaceId, number } = Route.useParams();
  const { view } = Route.useSearch();
  const space = useSpace(spaceId);
  const user = useUser();
  const navigate = useNavigate({ from: Route.fullPath });
  return (
    <>
      <DocumentTitle>{useChangeRequestDocumentTitle('Review')}</DocumentTitle>
      <ReviewScreen
        organizationId={organizationId}
        spaceId={spaceId}
        number={number}
        spaceLocked={space.editMode === 'locked'}
        currentUserId={user.id}
        view={view ?? 'split'}
        onViewChange={(next) =>
          void navigate({ search: next === 'inline' ? { view: 'inline' } : {}, replace: true, resetScroll: false })
        }
      />
    </>
  );
}
