import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { myInvitationsQueryOptions } from '../features/auth/api/get-invitations';
import { userQueryOptions } from '../features/auth/api/get-user';
import { organizationsQueryOptions } from '../features/organizations/api/get-organizations';
import { isApiError } from '../lib/api-client';
import { rootRoute } from './root';

/**
 * Every page that needs a signed-in user; without a session it sends the visitor to sign in, then back. The user,
 * their organizations and invitations load at once, and beside the loaders of the screen itself (a loader, not a
 * beforeLoad, which every loader below would wait for): a screen opens after one round trip, not two. Signed out,
 * the screen's own requests fail too, and the redirect wins over their errors.
 */
export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  loader: async ({ context, location }) => {
    void context.queryClient.prefetchQuery(myInvitationsQueryOptions());
    try {
      await Promise.all([
        context.queryClient.ensureQueryData(userQueryOptions()),
        context.queryClient.ensureQueryData(organizationsQueryOptions()),
      ]);
    } catch (error) {
      if (isApiError(error, 401)) throw redirect({ to: '/login', search: { redirect: location.href } });
      throw error;
    }
  },
  component: lazyRouteComponent(() => import('./app.lazy'), 'AppLayout'),
});

/** Any other address of a signed-in user: "not found" inside the app's frame, with its menus. */
export const appNotFoundRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '$',
  component: lazyRouteComponent(() => import('./app.lazy'), 'AppNotFound'),
});
