import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { userQueryOptions } from '../features/auth/api/get-user';
import { rootRoute } from './root';
import { consolePath, oneOf, searchParams } from './url';

/**
 * `?method=sso`: "Sign in with SSO" is open (a sign-in link an administrator can share); the person's e-mail
 * address then finds their organization's identity providers.
 */
const loginSearch = searchParams<{ redirect: string; method: 'sso' }>({
  redirect: consolePath,
  method: oneOf(['sso'] as const),
});

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: loginSearch,
  // Already signed in (asked of the server, not the cache): go where the visitor was heading.
  beforeLoad: async ({ context, search }) => {
    const user = await context.queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 }).catch(() => null);
    if (user) throw redirect({ href: search.redirect ?? '/', replace: true });
  },
  component: lazyRouteComponent(() => import('./login.lazy'), 'LoginPage'),
});
