import { useMutation } from '@tanstack/react-query';
import type { pdfResultSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { changeRequestPath } from '../utils/paths';

/**
 * `GET /v1/spaces/{spaceId}/change-requests/{number}/pdf` (`?only=true&page=` for one page) → `{url}`: where the
 * PDF can be downloaded (same origin, the session cookie authenticates).
 */
export function getPdfUrl(spaceId: string, number: number, pageId?: string) {
  return api.get<typeof pdfResultSchema>(changeRequestPath(spaceId, number, '/pdf'), {
    query: pageId ? { only: true, page: pageId } : {},
  });
}

export function useExportPdf(spaceId: string, number: number) {
  return useMutation({ mutationFn: (pageId?: string) => getPdfUrl(spaceId, number, pageId) });
}
