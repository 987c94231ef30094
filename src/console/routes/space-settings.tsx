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
  const { spaceId } = spaceSettingsRoute.useParams();
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('Settings')}</DocumentTitle>
      <SpaceSettings spaceId={spaceId} />
    </>
  );
}
