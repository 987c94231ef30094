import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateTeamMembersBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `PUT /v1/orgs/{organizationId}/teams/{teamId}/members` `{add, remove, memberships}` → 204: adds members by user
 * id or e-mail (of organization members), removes, changes roles, in one go.
 */
export function updateTeamMembers(organizationId: string, teamId: string, body: UpdateTeamMembersBody) {
  return api.send(
    'PUT',
    `/orgs/${encodeURIComponent(organizationId)}/teams/${encodeURIComponent(teamId)}/members`,
    body,
  );
}

/** Adds people (user ids or e-mails) to a team. */
export function useAddTeamMembers(organizationId: string, teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (users: string[]) => updateTeamMembers(organizationId, teamId, { add: users }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.teams.detail(organizationId, teamId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.teams.list(organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.members.all(organizationId) }),
      ]),
  });
}
