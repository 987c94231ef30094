import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { collectionsQueryOptions } from '../features/content/api/get-collections';
import { spacesQueryOptions } from '../features/content/api/get-spaces';
import { organizationRoute } from './organization';

export const organizationHomeRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: '/',
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(collectionsQueryOptions(params.organizationId)),
      context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId)),
    ]),
  component: lazyRouteComponent(() => import('./organization-home.lazy'), 'OrganizationHome'),
});
