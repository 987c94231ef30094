import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { trashQueryOptions } from '../features/trash/api/get-trash';
import { organizationRoute } from './organization';

export const trashRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'trash',
  loader: ({ context, params }) => context.queryClient.ensureQueryData(trashQueryOptions(params.organizationId)),
  component: lazyRouteComponent(() => import('./trash.lazy'), 'TrashPage'),
});
