import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}`: out of the team, still in the organization. */
export function removeTeamMember(organizationId: string, teamId: string, userId: string) {
  return api.send(
    'DELETE',
    `/orgs/${encodeURIComponent(organizationId)}/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(userId)}`,
  );
}

export function useRemoveTeamMember(organizationId: string, teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeTeamMember(organizationId, teamId, userId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.teams.detail(organizationId, teamId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.teams.list(organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.members.all(organizationId) }),
      ]),
  });
}
