import { createRoute } from '@tanstack/react-router';
import { pageParamsSchema } from '../../shared/contract';
import { DocumentTitle } from '../components/ui/page';
import { EditPageButton, NewChangeRequestButton } from '../features/change-requests/components/start-change-request';
import { useUser } from '../features/auth/api/get-user';
import { useSpace } from '../features/content/api/get-space';
import { spacePageQueryOptions, useSpacePage } from '../features/pages/api/get-space-page';
import { spacePagesQueryOptions } from '../features/pages/api/get-space-pages';
import { PageNotFound, SpacePages } from '../features/pages/components/space-pages';
import { SpaceSearch } from '../features/search/components/space-search';
import { orNotFound } from './not-found';
import { spaceRoute, useSpaceDocumentTitle } from './space';

/** `/o/$organizationId/spaces/$spaceId`: the space as readers see it, on its first page. */
export const spaceHomeRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: '/',
  loader: ({ context, params }) => context.queryClient.ensureQueryData(spacePagesQueryOptions(params.spaceId)),
  component: SpaceHome,
});

/** `/o/$organizationId/spaces/$spaceId/pages/$pageId`: one page of the space. */
export const spacePageRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'pages/$pageId',
  params: { parse: (params) => pageParamsSchema.parse(params) },
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(spacePagesQueryOptions(params.spaceId)),
      orNotFound(context.queryClient.ensureQueryData(spacePageQueryOptions(params.spaceId, params.pageId))),
    ]),
  component: SpacePage,
  notFoundComponent: SpacePageNotFound,
});

function SpaceContent({ pageId }: { pageId?: string }) {
  const { organizationId, spaceId } = spaceRoute.useParams();
  const space = useSpace(spaceId);
  const user = useUser();
  const access = {
    organizationId,
    spaceId,
    canEdit: space.permissions.edit,
    locked: space.editMode === 'locked',
  };
  return (
    <SpacePages
      organizationId={organizationId}
      spaceId={spaceId}
      spaceTitle={space.title || 'Untitled'}
      pageId={pageId}
      filesRevision={space.revision}
      emptyAction={<NewChangeRequestButton {...access} label="Start a change request" />}
      pageActions={(page) => <EditPageButton {...access} pageId={page.id} userId={user.id} />}
      sidebar={(tree) => (
        <SpaceSearch spaceId={spaceId} spaceTitle={space.title || 'Untitled'}>
          {tree}
        </SpaceSearch>
      )}
    />
  );
}

function SpaceHome() {
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle()}</DocumentTitle>
      <SpaceContent />
    </>
  );
}

function SpacePage() {
  const { spaceId, pageId } = spacePageRoute.useParams();
  const page = useSpacePage(spaceId, pageId);
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle(page.title || 'Untitled')}</DocumentTitle>
      <SpaceContent pageId={pageId} />
    </>
  );
}

function SpacePageNotFound() {
  const { organizationId, spaceId } = spaceRoute.useParams();
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('Page not found')}</DocumentTitle>
      <PageNotFound organizationId={organizationId} spaceId={spaceId} />
    </>
  );
}
