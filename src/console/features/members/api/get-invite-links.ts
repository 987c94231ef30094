import { queryOptions, useQuery } from '@tanstack/react-query';
import type { inviteLinkListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/link-invites`: the links anyone can follow to join, each with its role. */
export function getInviteLinks(organizationId: string, signal?: AbortSignal) {
  return getAllPages<typeof inviteLinkListSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/link-invites`,
    {},
    signal,
  );
}

export function inviteLinksQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.inviteLinks.list(organizationId),
    queryFn: ({ signal }) => getInviteLinks(organizationId, signal),
  });
}

export function useInviteLinks(organizationId: string) {
  return useQuery(inviteLinksQueryOptions(organizationId));
}
