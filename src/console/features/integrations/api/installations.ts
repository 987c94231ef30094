import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  contentInstallationListSchema,
  contentInstallationSchema,
  installationSchema,
} from '../../../../shared/contract';
import type { UpdateInstallationBody } from '../../../../shared/contract';
import { api, getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const path = (name: string, id?: string) =>
  `/integrations/${encodeURIComponent(name)}/installations${id ? `/${encodeURIComponent(id)}` : ''}`;

export function installationQueryOptions(name: string, id: string) {
  return queryOptions({
    queryKey: queryKeys.integrations.installation(name, id),
    queryFn: ({ signal }) => api.get<typeof installationSchema>(path(name, id), { signal }),
  });
}

export function useInstallation(name: string, id: string) {
  return useQuery(installationQueryOptions(name, id));
}

export function useTargets(name: string, id: string, kind: 'space' | 'site') {
  return useQuery({
    queryKey: queryKeys.integrations.targets(name, id, kind),
    queryFn: ({ signal }) =>
      getAllPages<typeof contentInstallationListSchema>(`${path(name, id)}/${kind}s`, {}, signal),
  });
}

/** `POST /v1/integrations/{integrationName}/installations`: installs on the organization. */
export function useInstall(organizationId: string, name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<typeof installationSchema>(path(name), { organization: organizationId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.integrations.all }),
  });
}

/** `PATCH …/installations/{installationId}`: configuration and external ids. */
export function useUpdateInstallation(name: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateInstallationBody) => api.patch<typeof installationSchema>(path(name, id), body),
    onSuccess: (installation) => queryClient.setQueryData(queryKeys.integrations.installation(name, id), installation),
  });
}

/** `DELETE …/installations/{installationId}`: uninstalls from the organization, its spaces and sites. */
export function useUninstall(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.send('DELETE', path(name, id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.integrations.all }),
  });
}

/** Adds or removes a space or site of an installation. */
export function useTargetChange(name: string, id: string, kind: 'space' | 'site') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ targetId, install }: { targetId: string; install: boolean }): Promise<void> => {
      if (install) {
        await api.post<typeof contentInstallationSchema>(
          `${path(name, id)}/${kind}s`,
          kind === 'space' ? { space: targetId } : { siteId: targetId },
        );
      } else {
        await api.send('DELETE', `${path(name, id)}/${kind}s/${encodeURIComponent(targetId)}`);
      }
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.integrations.targets(name, id, kind) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.integrations.installation(name, id) }),
      ]),
  });
}
