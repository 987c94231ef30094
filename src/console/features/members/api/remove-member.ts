import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Member } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/orgs/{organizationId}/members/{userId}`: they lose access at once; the last admin cannot go. */
export function removeMember(organizationId: string, userId: string) {
  return api.send('DELETE', `/orgs/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(userId)}`);
}

export function useRemoveMember(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (member: Member) => removeMember(organizationId, member.user.id),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.members.all(organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.teams.all(organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.organizations.members(organizationId) }),
      ]);
    },
  });
}
