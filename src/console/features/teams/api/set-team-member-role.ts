import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TeamMemberRole } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}` `{role: owner|member}` → 204. */
export function setTeamMemberRole(organizationId: string, teamId: string, userId: string, role: TeamMemberRole) {
  return api.send(
    'PUT',
    `/orgs/${encodeURIComponent(organizationId)}/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(userId)}`,
    { role },
  );
}

export function useSetTeamMemberRole(organizationId: string, teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: TeamMemberRole }) =>
      setTeamMemberRole(organizationId, teamId, userId, role),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.teams.detail(organizationId, teamId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.members.all(organizationId) }),
      ]),
  });
}
