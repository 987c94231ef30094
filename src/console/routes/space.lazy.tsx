import { Outlet } from '@tanstack/react-router';
import { useSpace } from '../features/content/api/get-space';
import { SpaceHeader, SpaceInTrash, SpaceTabs } from '../features/content/components/space-view';
import { ImportButton } from '../features/imports/forms/import-dialog';
import { useOrganization } from '../features/organizations/api/get-organization';
import { PublicThroughSites } from '../features/sites/components/public-through-sites';
import { spaceRoute } from './space';

export function SpaceLayout() {
  const { organizationId, spaceId } = spaceRoute.useParams();
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
