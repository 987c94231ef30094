import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { spacePageQueryOptions, useSpacePage } from '../features/pages/api/get-space-page';
import { spacePagesQueryOptions } from '../lib/space-pages';
import { PageNotFound } from '../features/pages/components/page-not-found';
import { orNotFound } from './-not-found';
import { SpaceContent } from './-space-content';
import { spaceRoute, useSpaceDocumentTitle } from './-space';
import { idParams } from './-url';

/** `/o/$organizationId/spaces/$spaceId/pages/$pageId`: one page of the space. */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/pages/$pageId')({
  params: { parse: idParams('pageId') },
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(spacePagesQueryOptions(params.spaceId)),
      orNotFound(context.queryClient.ensureQueryData(spacePageQueryOptions(params.spaceId, params.pageId))),
    ]),
  component: SpacePage,
  notFoundComponent: SpacePageNotFound,
});

function SpacePage() {
  const { spaceId, pageId } = Route.useParams();
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
