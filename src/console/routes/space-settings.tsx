import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { spaceRoute } from './space';

export const spaceSettingsRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'settings',
  component: lazyRouteComponent(() => import('./space-settings.lazy'), 'SpaceSettingsPage'),
});
