import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { changeRequestSchema, contentChangeResultSchema } from '../../../../shared/contract';
import type { ContentChange } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { changeRequestChanged } from '../utils/cache';
import { recordOwnEdit } from '../utils/own-edits';
import { changeRequestPath } from '../utils/paths';

/** Answer of an edit with `compat=false`: the change request after it, and what each operation did. */
const editResultSchema = z.object({
  changeRequest: changeRequestSchema,
  changes: z.array(contentChangeResultSchema),
});

export interface EditContentInput {
  changes: ContentChange[];
  /** The change request's revision the edit is based on: a stale one is refused with 409. */
  revision: string;
  /** Pages whose content the edit changes besides those it names (e.g. the subpages of a deleted page). */
  touches?: string[];
}

/** `POST /v1/spaces/{spaceId}/change-requests/{number}/content?compat=false` with `If-Match: "<revision>"`. */
export function editChangeRequestContent(spaceId: string, number: number, { changes, revision }: EditContentInput) {
  return api.post(changeRequestPath(spaceId, number, '/content'), { changes }, editResultSchema, {
    query: { compat: false },
    headers: { 'if-match': `"${revision}"` },
  });
}

function touchedPages({ changes, touches = [] }: EditContentInput): string[] {
  const pages = [...touches];
  for (const change of changes) {
    if ('page' in change && typeof change.page === 'string') pages.push(change.page);
  }
  return pages;
}

export function useEditChangeRequestContent(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EditContentInput) => editChangeRequestContent(spaceId, number, input),
    onSuccess: async (result, input) => {
      recordOwnEdit(input.revision, result.changeRequest.revision, touchedPages(input));
      await changeRequestChanged(queryClient, result.changeRequest);
    },
  });
}
