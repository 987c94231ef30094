import { createRoute, lazyRouteComponent, Link, notFound, redirect } from '@tanstack/react-router';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { buttonClass } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page';
import { firstDocument } from '../lib/page-tree';
import { ErrorState, EmptyState } from '../components/ui/states';
import { changeRequestQueryOptions } from '../features/change-requests/api/get-change-request';
import { changeRequestPageQueryOptions } from '../features/change-requests/api/get-change-request-page';
import { changeRequestPagesQueryOptions } from '../features/change-requests/api/get-change-request-pages';
import { changesQueryOptions } from '../features/change-requests/api/get-changes';
import { conflictsQueryOptions } from '../features/change-requests/api/get-conflicts';
import { orNotFound } from './not-found';
import { spaceRoute, useSpaceDocumentTitle } from './space';
import { idParams, oneOf, searchParams } from './url';

/** The change request's number in its space: a positive integer in the URL; anything else is number 0, none. */
function changeRequestNumber(value: string): number {
  return /^[1-9]\d{0,14}$/.test(value) ? Number(value) : 0;
}

/**
 * `/o/$organizationId/spaces/$spaceId/change-requests/$number/…`: the change request's header and sections.
 * The number is what the server writes in `urls.app`; the API takes it wherever it takes the id.
 */
export const changeRequestRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'change-requests/$number',
  params: {
    parse: (params) => ({ number: changeRequestNumber(params.number) }),
    stringify: (params) => ({ number: String(params.number) }),
  },
  loader: ({ context, params }) => {
    if (params.number === 0) throw notFound();
    return orNotFound(context.queryClient.ensureQueryData(changeRequestQueryOptions(params.spaceId, params.number)));
  },
  component: lazyRouteComponent(() => import('./change-request.lazy'), 'ChangeRequestLayout'),
  errorComponent: ChangeRequestError,
  notFoundComponent: ChangeRequestNotFound,
});

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

// ---------- Review ----------

const reviewSearch = searchParams<{ view: 'inline' }>({ view: oneOf(['inline'] as const) });

/** `…/change-requests/$number`: the review screen. `?view=inline` shows word diffs instead of side by side. */
export const changeRequestReviewRoute = createRoute({
  getParentRoute: () => changeRequestRoute,
  path: '/',
  validateSearch: reviewSearch,
  // Runs beside the parent's loader: an unknown change request is "not found" here too, never an error the
  // router logs while the parent's not-found wins the race.
  loader: ({ context, params }) =>
    orNotFound(context.queryClient.ensureQueryData(changesQueryOptions(params.spaceId, params.number))),
  component: lazyRouteComponent(() => import('./change-request.lazy'), 'ReviewPage'),
});

// ---------- Editor ----------

/** `…/change-requests/$number/pages`: the editor; it opens the first page when there is one. */
export const changeRequestPagesRoute = createRoute({
  getParentRoute: () => changeRequestRoute,
  path: 'pages',
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
  component: lazyRouteComponent(() => import('./change-request.lazy'), 'EditorHome'),
});

/** `…/change-requests/$number/pages/$pageId`: one page of the change request in the editor. */
export const changeRequestPageRoute = createRoute({
  getParentRoute: () => changeRequestRoute,
  path: 'pages/$pageId',
  params: { parse: idParams('pageId') },
  loader: async ({ context, params }) => {
    const { queryClient } = context;
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
  component: lazyRouteComponent(() => import('./change-request.lazy'), 'EditorPage'),
  notFoundComponent: EditorPageNotFound,
});

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

// ---------- Conflicts ----------

/** `…/change-requests/$number/conflicts`: the conflicts of the pending update from the space. */
export const changeRequestConflictsRoute = createRoute({
  getParentRoute: () => changeRequestRoute,
  path: 'conflicts',
  loader: ({ context, params }) =>
    orNotFound(
      Promise.all([
        context.queryClient.ensureQueryData(conflictsQueryOptions(params.spaceId, params.number)),
        context.queryClient.ensureQueryData(changeRequestPagesQueryOptions(params.spaceId, params.number)),
      ]),
    ),
  component: lazyRouteComponent(() => import('./change-request.lazy'), 'ConflictsPage'),
});
