import { queryOptions, useQuery } from '@tanstack/react-query';
import type { userInvitationListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/user/invitations`: the signed-in person's pending invitations, each with its organization and role. */
export function getMyInvitations(signal?: AbortSignal) {
  return getAllPages<typeof userInvitationListSchema>('/user/invitations', {}, signal);
}

export function myInvitationsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.invitations.mine,
    queryFn: ({ signal }) => getMyInvitations(signal),
  });
}

/** Asked again every few minutes while the console is open: an invitation may arrive at any time. */
export function useMyInvitations() {
  return useQuery({ ...myInvitationsQueryOptions(), refetchInterval: 5 * 60_000 });
}
