import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { samlProvidersQueryOptions } from '../features/sso/api/get-saml-providers';
import { orgSettingsRoute } from './org-settings';

/** `/o/$organizationId/settings/sso`: SAML single sign-on (admins): its providers, and whether it is enforced. */
export const ssoRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'sso',
  loader: ({ context, params }) => context.queryClient.prefetchQuery(samlProvidersQueryOptions(params.organizationId)),
  component: lazyRouteComponent(() => import('./sso.lazy'), 'SsoPage'),
});
