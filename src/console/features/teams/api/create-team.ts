import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTeamBody, teamSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `PUT /v1/orgs/{organizationId}/teams` `{title, members?}` → 201 the team. */
export function createTeam(organizationId: string, body: CreateTeamBody) {
  return api.put<typeof teamSchema>(`/orgs/${encodeURIComponent(organizationId)}/teams`, body);
}

export function useCreateTeam(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTeamBody) => createTeam(organizationId, body),
    onSuccess: async (team) => {
      queryClient.setQueryData(queryKeys.teams.detail(organizationId, team.id), team);
      await queryClient.invalidateQueries({ queryKey: queryKeys.teams.all(organizationId) });
    },
  });
}
