import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { openApiReferencePageSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `GET …/openapi/{specSlug}/versions/{versionId}/reference?q=&page=` (extension): the operations matching `q`,
 * a page at a time, ready to show.
 */
export function getReference(
  organizationId: string,
  slug: string,
  versionId: string,
  q: string,
  page: string | undefined,
  signal?: AbortSignal,
) {
  return api.get<typeof openApiReferencePageSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/openapi/${encodeURIComponent(slug)}/versions/${encodeURIComponent(versionId)}/reference`,
    { query: { q: q || undefined, page }, signal },
  );
}

export function referenceQueryOptions(organizationId: string, slug: string, versionId: string, q: string) {
  return infiniteQueryOptions({
    queryKey: [...queryKeys.openapi.reference(organizationId, slug, versionId), q],
    queryFn: ({ pageParam, signal }) => getReference(organizationId, slug, versionId, q, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page,
    // A version never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useReference(organizationId: string, slug: string, versionId: string, q: string) {
  return useInfiniteQuery(referenceQueryOptions(organizationId, slug, versionId, q));
}
