import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { emptyObjectSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/orgs/{organizationId}/invites/{inviteId}`: the signed-in user joins with the invite link's role. */
export function joinOrganization(organizationId: string, inviteId: string) {
  return api.post<typeof emptyObjectSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/invites/${encodeURIComponent(inviteId)}`,
    {},
  );
}

export function useJoinOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, inviteId }: { organizationId: string; inviteId: string }) =>
      joinOrganization(organizationId, inviteId),
    onSuccess: (_result, { organizationId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.members.all(organizationId) }),
      ]),
  });
}
