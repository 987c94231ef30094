import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { spaceRoute } from './space';

/** `/o/$organizationId/spaces/$spaceId/history`: the space's revisions, newest first. */
export const spaceHistoryRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'history',
  component: lazyRouteComponent(() => import('./space-history.lazy'), 'SpaceHistoryPage'),
});
