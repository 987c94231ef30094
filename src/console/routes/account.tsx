import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { idSchema } from '../../shared/contract';
import { sessionsQueryOptions } from '../features/account/api/get-sessions';
import { ssoLinksQueryOptions } from '../features/account/api/get-sso-links';
import { tokensQueryOptions } from '../features/account/api/get-tokens';
import { myInvitationsQueryOptions } from '../features/auth/api/get-invitations';
import { appRoute } from './app';

/** `?linked=<providerId>`: where the server sends the browser back once a provider is linked. */
const accountSearchSchema = z.object({ linked: idSchema.optional().catch(undefined) });

/**
 * `/account`: the signed-in person's profile (name, photo), password, API tokens, console sessions, invitations
 * and single sign-on identities.
 */
export const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/account',
  validateSearch: accountSearchSchema,
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.prefetchQuery(myInvitationsQueryOptions()),
      context.queryClient.prefetchQuery(ssoLinksQueryOptions()),
      context.queryClient.prefetchQuery(tokensQueryOptions()),
      context.queryClient.prefetchQuery(sessionsQueryOptions()),
    ]),
  component: lazyRouteComponent(() => import('./account.lazy'), 'AccountPage'),
});
