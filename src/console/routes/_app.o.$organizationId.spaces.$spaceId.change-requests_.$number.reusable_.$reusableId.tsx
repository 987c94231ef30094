import { createFileRoute, Link } from '@tanstack/react-router';
import { buttonClass } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page';
import { EmptyState } from '../components/ui/states';
import { changeRequestQueryOptions } from '../features/change-requests/api/get-change-request';
import { changeRequestPagesQueryOptions } from '../features/change-requests/api/get-change-request-pages';
import { reusableContentQueryOptions } from '../features/change-requests/api/get-reusable-contents';
import { ChangeRequestEditor } from '../features/change-requests/components/change-request-editor';
import { useSpace } from '../features/content/api/get-space';
import { orNotFound } from './-not-found';
import { changeRequestRoute, useChangeRequestDocumentTitle } from './-change-request';
import { idParams } from './-url';

/** `…/change-requests/$number/reusable/$reusableId`: one reusable content of the change request in the editor. */
export const Route = createFileRoute(
  '/_app/o/$organizationId/spaces/$spaceId/change-requests_/$number/reusable_/$reusableId',
)({
  params: { parse: idParams('reusableId') },
  loader: async ({ context, params }) => {
    const { queryClient } = context;
    const changeRequest = await queryClient.ensureQueryData(changeRequestQueryOptions(params.spaceId, params.number));
    await Promise.all([
      queryClient.ensureQueryData(changeRequestPagesQueryOptions(params.spaceId, params.number)),
      orNotFound(
        queryClient.ensureQueryData(
          reusableContentQueryOptions(params.spaceId, params.number, params.reusableId, changeRequest.revision),
        ),
      ),
    ]);
  },
  component: ReusableContentPage,
  notFoundComponent: ReusableContentNotFound,
});

function ReusableContentPage() {
  const { organizationId, spaceId, number, reusableId } = Route.useParams();
  const space = useSpace(spaceId);
  return (
    <>
      <DocumentTitle>{useChangeRequestDocumentTitle('Reusable content')}</DocumentTitle>
      <ChangeRequestEditor
        organizationId={organizationId}
        spaceId={spaceId}
        number={number}
        reusableId={reusableId}
        spaceLocked={space.editMode === 'locked'}
      />
    </>
  );
}

function ReusableContentNotFound() {
  const { organizationId, spaceId, number } = changeRequestRoute.useParams();
  return (
    <EmptyState
      title="Reusable content not found in this change request"
      action={
        <Link
          to="/o/$organizationId/spaces/$spaceId/change-requests/$number/pages"
          params={{ organizationId, spaceId, number }}
          className={buttonClass()}
        >
          Go to its pages
        </Link>
      }
    >
      It may have been deleted in this change request.
    </EmptyState>
  );
}
