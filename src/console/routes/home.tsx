import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { organizationsQueryOptions } from '../features/organizations/api/get-organizations';
import { appRoute } from './app';

/** `/`: straight to the first organization, or an invitation to create one. */
export const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  loader: async ({ context }) => {
    const [first] = await context.queryClient.ensureQueryData(organizationsQueryOptions());
    if (first) throw redirect({ to: '/o/$organizationId', params: { organizationId: first.id }, replace: true });
  },
  component: lazyRouteComponent(() => import('./home.lazy'), 'Welcome'),
});
