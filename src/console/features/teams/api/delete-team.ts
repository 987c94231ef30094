import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Team } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/orgs/{organizationId}/teams/{teamId}`: the team and the access it granted go; its members stay. */
export function deleteTeam(organizationId: string, teamId: string) {
  return api.send('DELETE', `/orgs/${encodeURIComponent(organizationId)}/teams/${encodeURIComponent(teamId)}`);
}

export function useDeleteTeam(
  organizationId: string,
  team: Pick<Team, 'id'>,
  options: { onDeleted?: () => unknown } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteTeam(organizationId, team.id),
    onSuccess: async () => {
      await options.onDeleted?.();
      queryClient.removeQueries({ queryKey: queryKeys.teams.detail(organizationId, team.id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.teams.all(organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.members.all(organizationId) }),
      ]);
    },
  });
}
