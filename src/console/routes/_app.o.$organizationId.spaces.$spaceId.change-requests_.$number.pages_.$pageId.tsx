import { createFileRoute, Link } from '@tanstack/react-router';
import { buttonClass } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page';
import { EmptyState } from '../components/ui/states';
import { changeRequestQueryOptions } from '../features/change-requests/api/get-change-request';
import { changeRequestPageQueryOptions } from '../features/change-requests/api/get-change-request-page';
import { changeRequestPagesQueryOptions } from '../features/change-requests/api/get-change-request-pages';
import { ChangeRequestEditor } from '../features/change-requests/components/change-request-editor';
import { editorIdentity, preloadEditor } from '../features/change-requests/utils/editor-mode';
import { userQueryOptions } from '../features/auth/api/get-user';
import { useSpace } from '../features/content/api/get-space';
import { orNotFound } from './-not-found';
import { changeRequestRoute, useChangeRequestDocumentTitle } from './-change-request';
import { idParams, searchParams, text } from './-url';

/** `?find=`: text of the page to select in the editor when it opens (the broken link "Fix" came for). */
const editorSearch = searchParams<{ find: string }>({ find: text(500) });

/** `…/change-requests/$number/pages/$pageId`: one page of the change request in the editor. */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/change-requests_/$number/pages_/$pageId')(
  {
    params: { parse: idParams('pageId') },
    validateSearch: editorSearch,
    loader: async ({ context, params, preload }) => {
      const { queryClient } = context;
      // Connected to the shared page as soon as who edits is known, when the page is opened (not when a link to it
      // is only hovered).
      preloadEditor();
      if (!preload) {
        void queryClient.ensureQueryData(userQueryOptions()).then(
          (me) => preloadEditor(params, editorIdentity(me)),
          () => undefined,
        );
      }
      // The page is loaded as of the change request's revision known at that moment (see PageEditor).
      const changeRequest = await queryClient.ensureQueryData(changeRequestQueryOptions(params.spaceId, params.number));
      await Promise.all([
        queryClient.ensureQueryData(changeRequestPagesQueryOptions(params.spaceId, params.number)),
        orNotFound(
          queryClient.ensureQueryData(
            changeRequestPageQueryOptions(params.spaceId, params.number, params.pageId, changeRequest.revision),
          ),
        ),
      ]);
    },
    component: EditorPage,
    notFoundComponent: EditorPageNotFound,
  },
);

function EditorPage() {
  const { organizationId, spaceId, number, pageId } = Route.useParams();
  const { find } = Route.useSearch();
  const space = useSpace(spaceId);
  return (
    <>
      <DocumentTitle>{useChangeRequestDocumentTitle('Edit')}</DocumentTitle>
      <ChangeRequestEditor
        organizationId={organizationId}
        spaceId={spaceId}
        number={number}
        pageId={pageId}
        {...(find ? { find } : {})}
        spaceLocked={space.editMode === 'locked'}
      />
    </>
  );
}

function EditorPageNotFound() {
  const { organizationId, spaceId, number } = changeRequestRoute.useParams();
  return (
    <EmptyState
      title="Page not found in this change request"
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
