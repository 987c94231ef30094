import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { spaceRoute } from './space';

/** `/o/$organizationId/spaces/$spaceId/links`: the links report of the space's current content. */
export const spaceLinksRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'links',
  component: lazyRouteComponent(() => import('./space-links.lazy'), 'SpaceLinksPage'),
});
