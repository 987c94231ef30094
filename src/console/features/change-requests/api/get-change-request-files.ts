import { queryOptions, useQuery } from '@tanstack/react-query';
import type { revisionFileListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestPath } from '../utils/paths';

/** Files listed at once where a page's cover is chosen. */
export const FILES_LIST_LIMIT = 1000;

/** `GET /v1/spaces/{spaceId}/change-requests/{number}/content/files`: the files of the change request. */
export function changeRequestFilesQueryOptions(spaceId: string, number: number) {
  return queryOptions({
    queryKey: queryKeys.changeRequests.files(spaceId, number),
    queryFn: ({ signal }) =>
      api.get<typeof revisionFileListSchema>(changeRequestPath(spaceId, number, '/content/files'), {
        query: { limit: FILES_LIST_LIMIT },
        signal,
      }),
  });
}

export function useChangeRequestFiles(spaceId: string, number: number) {
  return useQuery(changeRequestFilesQueryOptions(spaceId, number));
}
