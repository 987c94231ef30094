import { useQuery } from '@tanstack/react-query';
import type { importRunSchema } from '../../../../shared/contract';
import { api, isApiError } from '../../../lib/api-client';

/** How often a running import's progress is read. */
const PROGRESS_POLL_MS = 500;

/**
 * `GET /v1/spaces/{spaceId}/imports/{importId}`, read while the import runs. Until the server has recorded the run
 * (the first moments of the POST) it answers 404: that reads as "starting", not as an error.
 */
export function useImportRun(spaceId: string, importId: string | undefined) {
  return useQuery({
    queryKey: ['imports', spaceId, importId] as const,
    queryFn: async ({ signal }) => {
      try {
        return await api.get<typeof importRunSchema>(
          `/spaces/${encodeURIComponent(spaceId)}/imports/${encodeURIComponent(importId!)}`,
          { signal },
        );
      } catch (error) {
        if (isApiError(error, 404)) return null;
        throw error;
      }
    },
    enabled: importId !== undefined,
    refetchInterval: (query) =>
      query.state.data?.status === undefined || query.state.data.status === 'running' ? PROGRESS_POLL_MS : false,
    refetchIntervalInBackground: true,
    gcTime: 0,
  });
}
