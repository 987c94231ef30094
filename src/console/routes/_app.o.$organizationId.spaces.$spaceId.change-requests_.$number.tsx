import { createFileRoute, Link, notFound, Outlet } from '@tanstack/react-router';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { buttonClass } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page';
import { EmptyState, ErrorState } from '../components/ui/states';
import { changeRequestQueryOptions } from '../features/change-requests/api/get-change-request';
import { ChangeRequestHeader, ChangeRequestNav } from '../features/change-requests/components/change-request-header';
import { ImportButton } from '../features/imports/forms/import-dialog';
import { FollowButton } from '../features/notifications/components/follow-button';
import { orNotFound } from './-not-found';
import { spaceRoute, useSpaceDocumentTitle } from './-space';

/** The change request's number in its space: a positive integer in the URL; anything else is number 0, none. */
function changeRequestNumber(value: string): number {
  return /^[1-9]\d{0,14}$/.test(value) ? Number(value) : 0;
}

/**
 * `/o/$organizationId/spaces/$spaceId/change-requests/$number/…`: the change request's header and sections.
 * The number is what the server writes in `urls.app`; the API takes it wherever it takes the id.
 */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/change-requests_/$number')({
  params: {
    parse: (params) => ({ number: changeRequestNumber(params.number) }),
    stringify: (params) => ({ number: String(params.number) }),
  },
  loader: ({ context, params }) => {
    if (params.number === 0) throw notFound();
    return orNotFound(context.queryClient.ensureQueryData(changeRequestQueryOptions(params.spaceId, params.number)));
  },
  component: ChangeRequestLayout,
  errorComponent: ChangeRequestError,
  notFoundComponent: ChangeRequestNotFound,
});

function ChangeRequestLayout() {
  const { organizationId, spaceId, number } = Route.useParams();
  return (
    <div className="cr-page">
      <ChangeRequestHeader
        organizationId={organizationId}
        spaceId={spaceId}
        number={number}
        actions={(changeRequest) => (
          <>
            <FollowButton target={{ spaceId, changeRequest: number }} what="change request" />
            {changeRequest.permissions.edit &&
              (changeRequest.status === 'open' || changeRequest.status === 'draft') && (
                <ImportButton spaceId={spaceId} changeRequest={number} into={`change request #${number}`} />
              )}
          </>
        )}
      />
      <ChangeRequestNav organizationId={organizationId} spaceId={spaceId} number={number} />
      <Outlet />
    </div>
  );
}

function ChangeRequestError({ error, reset }: ErrorComponentProps) {
  return <ErrorState error={error} onRetry={reset} action={<AllChangeRequestsLink />} />;
}

function ChangeRequestNotFound() {
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('Change request not found')}</DocumentTitle>
      <EmptyState title="Change request not found" action={<AllChangeRequestsLink />}>
        The number may be wrong, or the change request belongs to another space.
      </EmptyState>
    </>
  );
}

function AllChangeRequestsLink() {
  const { organizationId, spaceId } = spaceRoute.useParams();
  return (
    <Link
      to="/o/$organizationId/spaces/$spaceId/change-requests"
      params={{ organizationId, spaceId }}
      className={buttonClass('secondary')}
    >
      All change requests
    </Link>
  );
}
