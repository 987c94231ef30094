import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  ChangeRequest,
  ContentChange,
  ContentChangeResult,
  RevisionFile,
  RevisionPage,
} from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { changeRequestChanged } from '../utils/cache';
import { recordOwnEdit } from '../utils/own-edits';
import { changeRequestPath } from '../utils/paths';

/** Answer of an edit with `compat=false`: the change request after it, and what each operation did. */
export interface EditContentResult {
  changeRequest: ChangeRequest;
  changes: ContentChangeResult[];
  /** The files an `insert_files` operation stored, in order. */
  insertedFiles?: Array<RevisionFile & { ref?: string }>;
}

export interface EditContentInput {
  changes: ContentChange[];
  /** The change request's revision the edit is based on: a stale one is refused with 409. */
  revision: string;
  /** Pages whose content the edit changes besides those it names (e.g. the subpages of a deleted page). */
  touches?: string[];
  /** Who in the console makes the edit (see own-edits). */
  origin?: string;
  /** Runs once applied, before the cache learns the change request's new revision. */
  onApplied?: (result: EditContentResult) => void;
}

/** `POST /v1/spaces/{spaceId}/change-requests/{number}/content?compat=false` with `If-Match: "<revision>"`. */
export function editChangeRequestContent(spaceId: string, number: number, { changes, revision }: EditContentInput) {
  return api.post<z.ZodType<EditContentResult>>(
    changeRequestPath(spaceId, number, '/content'),
    { changes },
    {
      query: { compat: false },
      headers: { 'if-match': `"${revision}"` },
    },
  );
}

/** Pages whose own content (title, body…) the edit changes; moving a page leaves its content as it was. */
function touchedPages({ changes, touches = [] }: EditContentInput): string[] {
  const pages = [...touches];
  for (const change of changes) {
    if (change.operation === 'update_page') {
      const { operation: _operation, page, into: _into, at: _at, ...content } = change;
      if (Object.values(content).some((value) => value !== undefined)) pages.push(page);
    } else if (change.operation === 'delete_page' || change.operation === 'revert_page') {
      pages.push(change.page);
    }
  }
  return pages;
}

/**
 * Pages an edit did not touch read the same in the revision it made: their cached reads carry over, so an editor
 * with unsaved text on one of them goes on without loading (and losing focus) when another page changes.
 */
function carryUntouchedPages(
  queryClient: QueryClient,
  spaceId: string,
  number: number,
  from: string,
  to: string,
  touched: string[],
) {
  const skip = new Set(touched);
  const cached = queryClient.getQueriesData<RevisionPage>({ queryKey: queryKeys.changeRequests.one(spaceId, number) });
  for (const [key, data] of cached) {
    const [, , , kind, pageId, revision] = key;
    if (kind !== 'page' || revision !== from || typeof pageId !== 'string' || skip.has(pageId) || !data) continue;
    queryClient.setQueryData(queryKeys.changeRequests.page(spaceId, number, pageId, to), data);
  }
}

/** What the console learns from an edit it made: pages it did not touch carry over, the rest reloads. */
async function afterEdit(
  queryClient: QueryClient,
  spaceId: string,
  number: number,
  input: EditContentInput,
  result: EditContentResult,
) {
  const touched = touchedPages(input);
  recordOwnEdit(input.revision, result.changeRequest.revision, touched, input.origin);
  carryUntouchedPages(queryClient, spaceId, number, input.revision, result.changeRequest.revision, touched);
  input.onApplied?.(result);
  await changeRequestChanged(queryClient, result.changeRequest);
}

export function useEditChangeRequestContent(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EditContentInput) => editChangeRequestContent(spaceId, number, input),
    onSuccess: (result, input) => afterEdit(queryClient, spaceId, number, input, result),
  });
}

export interface UploadFileInput {
  file: Blob;
  name: string;
  contentType?: string;
  /** The change request's revision the upload is based on: a stale one is refused with 409. */
  revision: string;
  origin?: string;
}

/**
 * `POST /v1/spaces/{spaceId}/change-requests/{number}/content/files?name=…` with the file as the body (up to
 * FILE_UPLOAD_MAX_BYTES, streamed to storage by the server) and `If-Match: "<revision>"`.
 */
export function useUploadChangeRequestFile(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: UploadFileInput): Promise<EditContentResult> => {
      const answer = await api.post<z.ZodType<{ changeRequest: ChangeRequest; file: RevisionFile }>>(
        changeRequestPath(spaceId, number, '/content/files'),
        undefined,
        {
          query: { name: input.name },
          headers: { 'if-match': `"${input.revision}"` },
          upload: { data: input.file, contentType: input.contentType ?? 'application/octet-stream' },
        },
      );
      return { changeRequest: answer.changeRequest, changes: [], insertedFiles: [answer.file] };
    },
    onSuccess: (result, input) =>
      afterEdit(queryClient, spaceId, number, { changes: [], revision: input.revision, origin: input.origin }, result),
  });
}
