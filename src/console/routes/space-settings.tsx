import { InstalledOn } from '../features/integrations/components/installed-on';
import { createRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { SpaceSettings } from '../features/content/components/space-view';
import { spaceRoute, useSpaceDocumentTitle } from './space';

export const spaceSettingsRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'settings',
  component: SpaceSettingsPage,
});

function SpaceSettingsPage() {
  const { organizationId, spaceId } = spaceSettingsRoute.useParams();
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('Settings')}</DocumentTitle>
      <SpaceSettings spaceId={spaceId} />
      <InstalledOn organizationId={organizationId} kind="space" id={spaceId} />
    </>
  );
}
