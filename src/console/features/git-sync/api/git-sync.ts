import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  GitSyncSettingsBody,
  gitSyncRunListSchema,
  gitSyncRunSchema,
  gitSyncSettingsSchema,
  gitSyncStateSchema,
  gitSyncTestResultSchema,
} from '../../../../shared/contract';
import { api, isApiError } from '../../../lib/api-client';

const base = (spaceId: string) => `/spaces/${encodeURIComponent(spaceId)}/git`;
const keys = {
  all: (spaceId: string) => ['git-sync', spaceId] as const,
  info: (spaceId: string) => ['git-sync', spaceId, 'info'] as const,
  settings: (spaceId: string) => ['git-sync', spaceId, 'settings'] as const,
  runs: (spaceId: string) => ['git-sync', spaceId, 'runs'] as const,
};

/** How often runs are read while one is queued or running. */
const RUN_POLL_MS = 1000;

/** `GET …/git/info`: the repository the space syncs with (any reader); null when none. */
export function useGitInfo(spaceId: string) {
  return useQuery({
    queryKey: keys.info(spaceId),
    queryFn: async ({ signal }) => {
      try {
        return await api.get<typeof gitSyncStateSchema>(`${base(spaceId)}/info`, { signal });
      } catch (error) {
        if (isApiError(error, 404)) return null;
        throw error;
      }
    },
  });
}

/** `GET …/git/sync`: the settings, webhook and state (space admins); null when not connected. */
export function useGitSyncSettings(spaceId: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.settings(spaceId),
    enabled,
    queryFn: async ({ signal }) => {
      try {
        return await api.get<typeof gitSyncSettingsSchema>(`${base(spaceId)}/sync`, { signal });
      } catch (error) {
        if (isApiError(error, 404)) return null;
        throw error;
      }
    },
  });
}

/** `GET …/git/runs`: the latest syncs, read again every second while one has not ended. */
export function useGitSyncRuns(spaceId: string, enabled: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: keys.runs(spaceId),
    enabled,
    queryFn: async ({ signal }) => {
      const list = await api.get<typeof gitSyncRunListSchema>(`${base(spaceId)}/runs`, {
        signal,
        query: { limit: 10 },
      });
      // A run that ended changed the space, its settings' state, maybe its change requests.
      if (!list.items.some((r) => r.status === 'queued' || r.status === 'running')) {
        void queryClient.invalidateQueries({ queryKey: keys.settings(spaceId) });
      }
      return list;
    },
    refetchInterval: (query) =>
      query.state.data?.items.some((r) => r.status === 'queued' || r.status === 'running') ? RUN_POLL_MS : false,
  });
}

export function useSaveGitSync(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GitSyncSettingsBody) => api.put<typeof gitSyncSettingsSchema>(`${base(spaceId)}/sync`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all(spaceId) }),
  });
}

export function useDisconnectGitSync(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.send('DELETE', `${base(spaceId)}/sync`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all(spaceId) }),
  });
}

/** `POST …/git/sync/test`: whether the repository opens with these settings; nothing is stored. */
export function useTestGitSync(spaceId: string) {
  return useMutation({
    mutationFn: (body: { url: string; branch: string; token?: string | null }) =>
      api.post<typeof gitSyncTestResultSchema>(`${base(spaceId)}/sync/test`, body),
  });
}

/** `POST …/git/sync/run`: sync now, from the repository or to it. */
export function useRunGitSync(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (direction: 'import' | 'export') =>
      api.post<typeof gitSyncRunSchema>(`${base(spaceId)}/sync/run`, { direction }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.runs(spaceId) }),
  });
}
