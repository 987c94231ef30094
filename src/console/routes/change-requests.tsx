import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { changeRequestStatusSchema } from '../../shared/contract';
import type { ChangeRequestStatus } from '../../shared/contract';
import { changeRequestsQueryOptions } from '../features/change-requests/api/get-change-requests';
import { spaceRoute } from './space';

/** `?status=draft|merged|archived`; open, the default, leaves the URL bare. Anything else falls back to open. */
const listSearchSchema = z.object({
  status: changeRequestStatusSchema.exclude(['open']).optional().catch(undefined),
});

/** `/o/$organizationId/spaces/$spaceId/change-requests`: the list, one tab per status. */
export const changeRequestsRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'change-requests',
  validateSearch: listSearchSchema,
  loaderDeps: ({ search }): { status: ChangeRequestStatus } => ({ status: search.status ?? 'open' }),
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureInfiniteQueryData(changeRequestsQueryOptions(params.spaceId, deps.status)),
  component: lazyRouteComponent(() => import('./change-requests.lazy'), 'ChangeRequestsPage'),
});
