import { queryOptions, useQuery } from '@tanstack/react-query';
import type { memberSpaceListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/members/{userId}/spaces`: the spaces a member reaches, with their level there. */
export function getMemberSpaces(organizationId: string, userId: string, signal?: AbortSignal) {
  return getAllPages<typeof memberSpaceListSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(userId)}/spaces`,
    {},
    signal,
  );
}

export function memberSpacesQueryOptions(organizationId: string, userId: string) {
  return queryOptions({
    queryKey: queryKeys.members.spaces(organizationId, userId),
    queryFn: ({ signal }) => getMemberSpaces(organizationId, userId, signal),
  });
}

export function useMemberSpaces(organizationId: string, userId: string) {
  return useQuery(memberSpacesQueryOptions(organizationId, userId));
}
