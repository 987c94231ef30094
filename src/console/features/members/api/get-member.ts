import { queryOptions, useQuery } from '@tanstack/react-query';
import type { memberSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/members/{userId}`. */
export function getMember(organizationId: string, userId: string, signal?: AbortSignal) {
  return api.get<typeof memberSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(userId)}`,
    {
      signal,
    },
  );
}

export function memberQueryOptions(organizationId: string, userId: string) {
  return queryOptions({
    queryKey: queryKeys.members.detail(organizationId, userId),
    queryFn: ({ signal }) => getMember(organizationId, userId, signal),
  });
}

export function useMember(organizationId: string, userId: string) {
  return useQuery(memberQueryOptions(organizationId, userId));
}
