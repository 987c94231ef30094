import { queryOptions, useQuery } from '@tanstack/react-query';
import { openApiReferenceSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET …/openapi/{specSlug}/versions/{versionId}/reference` (extension): every operation, ready to show. */
export function getReference(organizationId: string, slug: string, versionId: string, signal?: AbortSignal) {
  return api.get(
    `/orgs/${encodeURIComponent(organizationId)}/openapi/${encodeURIComponent(slug)}/versions/${encodeURIComponent(versionId)}/reference`,
    openApiReferenceSchema,
    { signal },
  );
}

export function referenceQueryOptions(organizationId: string, slug: string, versionId: string) {
  return queryOptions({
    queryKey: queryKeys.openapi.reference(organizationId, slug, versionId),
    queryFn: ({ signal }) => getReference(organizationId, slug, versionId, signal),
    // A version never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useReference(organizationId: string, slug: string, versionId: string | undefined) {
  return useQuery({ ...referenceQueryOptions(organizationId, slug, versionId ?? ''), enabled: !!versionId });
}
