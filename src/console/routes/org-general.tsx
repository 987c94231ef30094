import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { orgSettingsRoute } from './org-settings';

/**
 * `/o/$organizationId/settings/general`: name, logo, default role, invite links on or off, and deleting the
 * organization (admins; everyone else reads the settings).
 */
export const orgGeneralRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'general',
  component: lazyRouteComponent(() => import('./org-general.lazy'), 'OrgGeneralPage'),
});
