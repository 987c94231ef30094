import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createTeamBodySchema, teamSchema } from '../../../../shared/contract';
import type { CreateTeamBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export { createTeamBodySchema };

/** `PUT /v1/orgs/{organizationId}/teams` `{title, members?}` → 201 the team. */
export function createTeam(organizationId: string, body: CreateTeamBody) {
  return api.put(`/orgs/${encodeURIComponent(organizationId)}/teams`, body, teamSchema);
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
