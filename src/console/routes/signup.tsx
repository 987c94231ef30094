import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { userQueryOptions } from '../features/auth/api/get-user';
import { rootRoute } from './root';
import { redirectSearch } from './url';

export const signupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signup',
  validateSearch: redirectSearch,
  beforeLoad: async ({ context, search }) => {
    const user = await context.queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 }).catch(() => null);
    if (user) throw redirect({ href: search.redirect ?? '/', replace: true });
  },
  component: lazyRouteComponent(() => import('./signup.lazy'), 'SignupPage'),
});
