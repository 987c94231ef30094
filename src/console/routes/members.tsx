import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { MEMBER_SEARCH_MAX, MEMBER_SORTS, ROLES } from '../../shared/contract/constants';
import type { ListMembersQuery } from '../../shared/contract';
import { membersQueryOptions } from '../features/members/api/get-members';
import { orgSettingsRoute } from './org-settings';
import { id, oneOf, searchParams, text } from './url';

/**
 * `?search=&role=&sort=lastSeenAt&order=asc&member=<userId>`: the list's search, filter and sort, and the member
 * whose details are open. Defaults (joined, newest first) leave the URL bare; anything invalid falls back to them.
 */
const membersSearch = searchParams<{
  search: string;
  role: NonNullable<ListMembersQuery['role']>;
  sort: Exclude<ListMembersQuery['sort'], 'joinedAt'>;
  order: 'asc';
  member: string;
}>({
  search: text(MEMBER_SEARCH_MAX),
  role: oneOf([...ROLES, 'guest'] as const),
  sort: oneOf(MEMBER_SORTS.filter((sort) => sort !== 'joinedAt')),
  order: oneOf(['asc'] as const),
  member: id,
});

export const membersRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'members',
  validateSearch: membersSearch,
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
