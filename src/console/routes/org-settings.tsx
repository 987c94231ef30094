import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { organizationRoute } from './organization';

/**
 * `/o/$organizationId/settings`: the organization's people and settings, one tab each (general, members, teams,
 * invite links, e-mail domains, single sign-on, translations). The bare address opens "General", which everyone
 * in the organization may read; each other tab is listed only to those its screen serves (never a "No access").
 */
export const orgSettingsRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'settings',
  component: lazyRouteComponent(() => import('./org-settings.lazy'), 'OrgSettingsLayout'),
});

export const orgSettingsIndexRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: '/',
  // Members and teams have their own entries in the sidebar: "Settings" opens General, which guests read too.
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/o/$organizationId/settings/general', params, replace: true });
  },
});
