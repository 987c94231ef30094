import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { RoleOrGuest } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { targetPath, type AccessTarget } from './target';

/** Who a grant is given to. */
export type Grantee = { kind: 'user'; id: string } | { kind: 'team'; id: string };

function granteePath(target: AccessTarget, who: Grantee): string {
  return targetPath(target, `/permissions/${who.kind === 'user' ? 'users' : 'teams'}/${encodeURIComponent(who.id)}`);
}

/** A grant changes the item's lists and explanations, the teams' space counts and the members' spaces. */
async function refresh(queryClient: QueryClient, target: AccessTarget) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.access.item(target.kind, target.id) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.teams.all(target.organizationId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.members.all(target.organizationId) }),
  ]);
}

/** `PATCH …/permissions/{users|teams}/{id}` `{role}`: gives a role, or changes it (204). */
export function useSetGrant(target: AccessTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ who, role }: { who: Grantee; role: RoleOrGuest }) =>
      api.send('PATCH', granteePath(target, who), { role }),
    onSuccess: () => refresh(queryClient, target),
  });
}

/** `DELETE …/permissions/{users|teams}/{id}`: takes the grant away. */
export function useRemoveGrant(target: AccessTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (who: Grantee) => api.send('DELETE', granteePath(target, who)),
    onSuccess: () => refresh(queryClient, target),
  });
}
