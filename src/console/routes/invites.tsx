import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { orgSettingsRoute } from './org-settings';

/** `/o/$organizationId/settings/invites`: the organization's invite links. */
export const invitesRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'invites',
  component: lazyRouteComponent(() => import('./invites.lazy'), 'InvitesPage'),
});
