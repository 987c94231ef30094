import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { idSchema, listMembersQuerySchema, MEMBER_SORTS } from '../../shared/contract';
import { membersQueryOptions } from '../features/members/api/get-members';
import { orgSettingsRoute } from './org-settings';

/**
 * `?search=&role=&sort=lastSeenAt&order=asc&member=<userId>`: the list's search, filter and sort, and the member
 * whose details are open. Defaults (joined, newest first) leave the URL bare; anything invalid falls back to them.
 */
const membersSearchSchema = z.object({
  search: listMembersQuerySchema.shape.search.catch(undefined),
  role: listMembersQuerySchema.shape.role.catch(undefined),
  sort: z.enum(MEMBER_SORTS).exclude(['joinedAt']).optional().catch(undefined),
  order: z.enum(['asc']).optional().catch(undefined),
  member: idSchema.optional().catch(undefined),
});

export const membersRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'members',
  validateSearch: membersSearchSchema,
  loaderDeps: ({ search: { search, role, sort, order } }) => ({ search, role, sort, order }),
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureInfiniteQueryData(
      membersQueryOptions(params.organizationId, {
        search: deps.search,
        role: deps.role,
        sort: deps.sort ?? 'joinedAt',
        order: deps.order ?? 'desc',
      }),
    ),
  component: lazyRouteComponent(() => import('./members.lazy'), 'MembersPage'),
});
