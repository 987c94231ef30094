import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { memberListSchema } from '../../../../shared/contract';
import type { ListMembersQuery } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Rows asked per page while scrolling: a few screens' worth. */
export const MEMBERS_PAGE_SIZE = 100;

export type MembersQuery = Partial<ListMembersQuery>;

/** `GET /v1/orgs/{organizationId}/members`: one keyset page, searched, filtered and sorted by the server. */
export function getMembers(organizationId: string, query: MembersQuery & { page?: string }, signal?: AbortSignal) {
  return api.get<typeof memberListSchema>(`/orgs/${encodeURIComponent(organizationId)}/members`, {
    query: { ...query, limit: MEMBERS_PAGE_SIZE },
    signal,
  });
}

export function membersQueryOptions(organizationId: string, query: MembersQuery) {
  return infiniteQueryOptions({
    queryKey: queryKeys.members.list(organizationId, query),
    queryFn: ({ pageParam, signal }) => getMembers(organizationId, { ...query, page: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page,
  });
}

/** Keeps showing the previous results while a new search or filter loads, so the table does not flash. */
export function useMembers(organizationId: string, query: MembersQuery) {
  return useInfiniteQuery({ ...membersQueryOptions(organizationId, query), placeholderData: keepPreviousData });
}
