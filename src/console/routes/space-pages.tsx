import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { spacePageQueryOptions } from '../features/pages/api/get-space-page';
import { spacePagesQueryOptions } from '../features/pages/api/get-space-pages';
import { PageNotFound } from '../features/pages/components/page-not-found';
import { orNotFound } from './not-found';
import { spaceRoute, useSpaceDocumentTitle } from './space';
import { idParams } from './url';

/** `/o/$organizationId/spaces/$spaceId`: the space as readers see it, on its first page. */
export const spaceHomeRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: '/',
  loader: ({ context, params }) => context.queryClient.ensureQueryData(spacePagesQueryOptions(params.spaceId)),
  component: lazyRouteComponent(() => import('./space-pages.lazy'), 'SpaceHome'),
});

/** `/o/$organizationId/spaces/$spaceId/pages/$pageId`: one page of the space. */
export const spacePageRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'pages/$pageId',
  params: { parse: idParams('pageId') },
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(spacePagesQueryOptions(params.spaceId)),
      orNotFound(context.queryClient.ensureQueryData(spacePageQueryOptions(params.spaceId, params.pageId))),
    ]),
  component: lazyRouteComponent(() => import('./space-pages.lazy'), 'SpacePage'),
  notFoundComponent: SpacePageNotFound,
});

function SpacePageNotFound() {
  const { organizationId, spaceId } = spaceRoute.useParams();
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('Page not found')}</DocumentTitle>
      <PageNotFound organizationId={organizationId} spaceId={spaceId} />
    </>
  );
}
