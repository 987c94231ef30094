import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { CHANGE_REQUEST_STATUSES } from '../../shared/contract/constants';
import type { ChangeRequestStatus } from '../../shared/contract';
import { changeRequestsQueryOptions } from '../features/change-requests/api/get-change-requests';
import { spaceRoute } from './space';
import { oneOf, searchParams } from './url';

/** `?status=draft|merged|archived`; open, the default, leaves the URL bare. Anything else falls back to open. */
const listSearch = searchParams<{ status: Exclude<ChangeRequestStatus, 'open'> }>({
  status: oneOf(CHANGE_REQUEST_STATUSES.filter((status) => status !== 'open')),
});

/** `/o/$organizationId/spaces/$spaceId/change-requests`: the list, one tab per status. */
export const changeRequestsRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'change-requests',
  validateSearch: listSearch,
  loaderDeps: ({ search }): { status: ChangeRequestStatus } => ({ status: search.status ?? 'open' }),
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureInfiniteQueryData(changeRequestsQueryOptions(params.spaceId, deps.status)),
  component: lazyRouteComponent(() => import('./change-requests.lazy'), 'ChangeRequestsPage'),
});
