import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { changeRequestSchema, linkListSchema } from '../../../../shared/contract';
import type { LinkStatus } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const PER_PAGE = 50;

/** `GET /v1/spaces/{spaceId}/links?status=`: the links of the space's current content, page by page. */
export function spaceLinksQueryOptions(spaceId: string, status: LinkStatus | undefined) {
  return infiniteQueryOptions({
    queryKey: ['links', spaceId, status ?? 'all'] as const,
    queryFn: ({ pageParam, signal }) =>
      api.get<typeof linkListSchema>(`/spaces/${encodeURIComponent(spaceId)}/links`, {
        query: { status, limit: PER_PAGE, page: pageParam },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page,
  });
}

/** A new change request (`POST /v1/spaces/{spaceId}/change-requests`) to fix a broken link in. */
export function useFixInChangeRequest(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { subject: string }) =>
      api.post<typeof changeRequestSchema>(`/spaces/${encodeURIComponent(spaceId)}/change-requests`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.lists(spaceId) }),
  });
}
