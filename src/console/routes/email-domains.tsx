import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { emailDomainsQueryOptions } from '../features/email-domains/api/get-email-domains';
import { orgSettingsRoute } from './org-settings';

/** `/o/$organizationId/settings/domains`: e-mail domains and their verification (admins). */
export const emailDomainsRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'domains',
  loader: ({ context, params }) => context.queryClient.prefetchQuery(emailDomainsQueryOptions(params.organizationId)),
  component: lazyRouteComponent(() => import('./email-domains.lazy'), 'EmailDomainsPage'),
});
