import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { importResultSchema } from '../../../../shared/contract';
import type { ImportSource } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Where an import goes: the space (merged at once), or one of its change requests by number. */
export interface ImportTarget {
  spaceId: string;
  changeRequest?: number;
}

/** What the dialog sends: a URL the server fetches, or a file uploaded as the request body. */
export type ImportRequest = { importId: string; source: ImportSource } & (
  { url: string; file?: undefined } | { file: File; contentType: string; url?: undefined }
);

export function importPath({ spaceId, changeRequest }: ImportTarget): string {
  const space = `/spaces/${encodeURIComponent(spaceId)}`;
  return changeRequest === undefined
    ? `${space}/content/import`
    : `${space}/change-requests/${changeRequest}/content/import`;
}

/**
 * `POST …/content/import`: `{url, source}` as JSON, or the file itself with `?source=`. `importId` names the run so
 * that its progress can be followed while this request is under way (see useImportRun).
 */
export function useImportContent(target: ImportTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ImportRequest) =>
      request.file
        ? api.upload<typeof importResultSchema>(
            importPath(target),
            { data: request.file, contentType: request.contentType },
            {
              query: { source: request.source, importId: request.importId },
            },
          )
        : api.post<typeof importResultSchema>(
            importPath(target),
            { url: request.url, source: request.source },
            {
              query: { importId: request.importId },
            },
          ),
    onSuccess: () => {
      const { spaceId, changeRequest } = target;
      const stale =
        changeRequest === undefined
          ? [
              // An import into the space is merged through a change request of its own.
              queryKeys.content.space(spaceId),
              queryKeys.spaces.detail(spaceId),
              queryKeys.changeRequests.space(spaceId),
              ['search'],
            ]
          : [queryKeys.changeRequests.one(spaceId, changeRequest)];
      return Promise.all([
        ...stale.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
        queryClient.invalidateQueries({ queryKey: ['links', spaceId] }),
      ]);
    },
  });
}
