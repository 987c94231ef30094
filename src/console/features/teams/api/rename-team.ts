import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Team, teamSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /v1/orgs/{organizationId}/teams/{teamId}` `{title}`. */
export function renameTeam(organizationId: string, teamId: string, title: string) {
  return api.patch<typeof teamSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/teams/${encodeURIComponent(teamId)}`,
    { title },
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
