import { createFileRoute, Outlet } from '@tanstack/react-router';
import { preloadMarkdown } from '../components/ui/markdown';
import { collectionsQueryOptions } from '../features/content/api/get-collections';
import { spaceQueryOptions, useSpace } from '../features/content/api/get-space';
import { spacesQueryOptions } from '../features/content/api/get-spaces';
import { SpaceHeader, SpaceInTrash, SpaceTabs } from '../features/content/components/space-view';
import { ImportButton } from '../features/imports/forms/import-dialog';
import { useOrganization } from '../features/organizations/api/get-organization';
import { PublicThroughSites } from '../features/sites/components/public-through-sites';
import { contentError } from './-content-error';
import { idParams } from './-url';

/**
 * `/o/$organizationId/spaces/$spaceId/…`: the space's header and sections (pages, change requests, settings).
 * Each section is a child route and sets the document title.
 */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId')({
  params: { parse: idParams('spaceId') },
  loader: ({ context, params }) => {
    // Every section of a space renders markdown: fetch the renderer alongside the data.
    preloadMarkdown();
    return Promise.all([
      context.queryClient.ensureQueryData(spaceQueryOptions(params.spaceId)),
      context.queryClient.ensureQueryData(collectionsQueryOptions(params.organizationId)),
      context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId)),
    ]);
  },
  component: SpaceLayout,
  errorComponent: contentError('space'),
});

function SpaceLayout() {
  const { organizationId, spaceId } = Route.useParams();
  const organization = useOrganization(organizationId);
  const space = useSpace(spaceId);
  return (
    <div className="space-page">
      <SpaceHeader
        organizationId={organizationId}
        organizationTitle={organization.title}
        spaceId={spaceId}
        actions={
          // An import into the space is merged at once: it takes the level that merges (review), as the server asks.
          space.permissions.merge &&
          space.editMode !== 'locked' && (
            <ImportButton spaceId={spaceId} into={`the space “${space.title || 'Untitled'}”`} />
          )
        }
      />
      {!space.deletedAt && (
        <PublicThroughSites organizationId={organizationId} spaceId={spaceId} spaceVisibility={space.visibility} />
      )}
      {space.deletedAt ? (
        <SpaceInTrash organizationId={organizationId} spaceId={spaceId} />
      ) : (
        <>
          <SpaceTabs organizationId={organizationId} spaceId={spaceId} />
          <Outlet />
        </>
      )}
    </div>
  );
}
