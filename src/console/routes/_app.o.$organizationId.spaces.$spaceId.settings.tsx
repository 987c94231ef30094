import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { AccessPanel } from '../features/access/components/access-panel';
import { useUser } from '../features/auth/api/get-user';
import { useSpace } from '../features/content/api/get-space';
import { SpaceSettings } from '../features/content/components/space-view';
import { InstalledOn } from '../features/integrations/components/installed-on';
import { GitSyncPanel } from '../features/git-sync/components/git-sync-panel';
import { useSpaceDocumentTitle } from './-space';

export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/settings')({
  component: SpaceSettingsPage,
});

function SpaceSettingsPage() {
  const { organizationId, spaceId } = Route.useParams();
  const space = useSpace(spaceId);
  const me = useUser();
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('Settings')}</DocumentTitle>
      <SpaceSettings spaceId={spaceId} />
      <AccessPanel
        key={space.id}
        target={{ kind: 'spaces', id: space.id, organizationId }}
        defaultLevel={space.defaultLevel}
        canAdmin={space.permissions.admin}
        inheritsFrom={space.parent ? 'collection' : 'organization'}
        me={me}
      />
      <GitSyncPanel
        organizationId={organizationId}
        spaceId={spaceId}
        admin={space.permissions.admin}
        canSync={space.permissions.triggerGitSync}
      />
      <InstalledOn organizationId={organizationId} kind="space" id={spaceId} />
    </>
  );
}
