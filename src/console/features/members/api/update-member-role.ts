import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Member, UpdateMemberBody, memberSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /v1/orgs/{organizationId}/members/{userId}` `{role}`: `null` makes a guest; the last admin stays one. */
export function updateMemberRole(organizationId: string, userId: string, body: UpdateMemberBody) {
  return api.patch<typeof memberSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(userId)}`,
    body,
  );
}

export function useUpdateMemberRole(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ member, role }: { member: Member; role: UpdateMemberBody['role'] }) =>
      updateMemberRole(organizationId, member.user.id, { role }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(queryKeys.members.detail(organizationId, updated.user.id), updated);
      // A role filter may no longer match; what the organization lets me do may have changed too.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.members.all(organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.organizations.detail(organizationId) }),
      ]);
    },
  });
}
