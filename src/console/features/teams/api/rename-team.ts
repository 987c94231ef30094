import { useMutation, useQueryClient } from '@tanstack/react-query';
import { teamSchema, updateTeamBodySchema } from '../../../../shared/contract';
import type { Team } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export { updateTeamBodySchema };

/** `PATCH /v1/orgs/{organizationId}/teams/{teamId}` `{title}`. */
export function renameTeam(organizationId: string, teamId: string, title: string) {
  return api.patch(
    `/orgs/${encodeURIComponent(organizationId)}/teams/${encodeURIComponent(teamId)}`,
    { title },
    teamSchema,
  );
}

export function useRenameTeam(organizationId: string, team: Pick<Team, 'id'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (title: string) => renameTeam(organizationId, team.id, title),
    onSuccess: async (renamed) => {
      queryClient.setQueryData(queryKeys.teams.detail(organizationId, renamed.id), renamed);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.teams.all(organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.members.all(organizationId) }),
      ]);
    },
  });
}
