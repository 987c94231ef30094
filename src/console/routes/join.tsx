import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { ID_MAX, INVITE_ID_MAX } from '../../shared/contract/constants';
import { rootRoute } from './root';
import { pathParams } from './url';

/** `/join/$organizationId/$inviteId`: where an invite link leads (the console writes these links). */
export const joinRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/join/$organizationId/$inviteId',
  params: { parse: pathParams({ organizationId: ID_MAX, inviteId: INVITE_ID_MAX }) },
  component: lazyRouteComponent(() => import('./join.lazy'), 'JoinPage'),
});
