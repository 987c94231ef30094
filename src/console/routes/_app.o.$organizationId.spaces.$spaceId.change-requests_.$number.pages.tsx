import { createFileRoute, redirect } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { changeRequestPagesQueryOptions } from '../features/change-requests/api/get-change-request-pages';
import { ChangeRequestEditor } from '../features/change-requests/components/change-request-editor';
import { useSpace } from '../features/content/api/get-space';
import { firstDocument } from '../lib/page-tree';
import { useChangeRequestDocumentTitle } from './-change-request';

/** `…/change-requests/$number/pages`: the editor; it opens the first page when there is one. */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/change-requests_/$number/pages')({
  loader: async ({ context, params }) => {
    const pages = await context.queryClient.ensureQueryData(
      changeRequestPagesQueryOptions(params.spaceId, params.number),
    );
    const first = firstDocument(pages);
    if (first) {
      throw redirect({
        to: '/o/$organizationId/spaces/$spaceId/change-requests/$number/pages/$pageId',
        params: { ...params, pageId: first.id },
        replace: true,
      });
    }
  },
  component: EditorHome,
});

function EditorHome() {
  const { organizationId, spaceId, number } = Route.useParams();
  const space = useSpace(spaceId);
  return (
    <>
      <DocumentTitle>{useChangeRequestDocumentTitle('Pages')}</DocumentTitle>
      <ChangeRequestEditor
        organizationId={organizationId}
        spaceId={spaceId}
        number={number}
        spaceLocked={space.editMode === 'locked'}
      />
    </>
  );
}
