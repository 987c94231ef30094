import { queryOptions, useQuery } from '@tanstack/react-query';
import type { invitePreviewSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `GET /v1/orgs/{organizationId}/invites/{inviteId}` (extension, no sign-in needed): the organization an invite
 * link leads to, the role it gives, and the caller's own role when they are a member already.
 */
export function getInvitePreview(organizationId: string, inviteId: string, signal?: AbortSignal) {
  return api.get<typeof invitePreviewSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/invites/${encodeURIComponent(inviteId)}`,
    { signal },
  );
}

export function invitePreviewQueryOptions(organizationId: string, inviteId: string) {
  return queryOptions({
    queryKey: queryKeys.inviteLinks.preview(organizationId, inviteId),
    queryFn: ({ signal }) => getInvitePreview(organizationId, inviteId, signal),
    retry: false,
  });
}

export function useInvitePreview(organizationId: string, inviteId: string) {
  return useQuery(invitePreviewQueryOptions(organizationId, inviteId));
}
