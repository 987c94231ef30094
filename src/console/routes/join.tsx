import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { inviteParamsSchema } from '../../shared/contract';
import { rootRoute } from './root';

/** `/join/$organizationId/$inviteId`: where an invite link leads (the console writes these links). */
export const joinRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/join/$organizationId/$inviteId',
  params: { parse: (params) => inviteParamsSchema.parse(params) },
  component: lazyRouteComponent(() => import('./join.lazy'), 'JoinPage'),
});
