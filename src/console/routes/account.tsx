import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { sessionsQueryOptions } from '../features/account/api/get-sessions';
import { ssoLinksQueryOptions } from '../features/account/api/get-sso-links';
import { tokensQueryOptions } from '../features/account/api/get-tokens';
import { myInvitationsQueryOptions } from '../features/auth/api/get-invitations';
import { appRoute } from './app';
import { id, searchParams } from './url';

/** `?linked=<providerId>`: where the server sends the browser back once a provider is linked. */
const accountSearch = searchParams<{ linked: string }>({ linked: id });

/**
 * `/account`: the signed-in person's profile (name, photo), password, API tokens, console sessions, invitations
 * and single sign-on identities.
 */
export const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/account',
  validateSearch: accountSearch,
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.prefetchQuery(myInvitationsQueryOptions()),
      context.queryClient.prefetchQuery(ssoLinksQueryOptions()),
      context.queryClient.prefetchQuery(tokensQueryOptions()),
      context.queryClient.prefetchQuery(sessionsQueryOptions()),
    ]),
  component: lazyRouteComponent(() => import('./account.lazy'), 'AccountPage'),
});
