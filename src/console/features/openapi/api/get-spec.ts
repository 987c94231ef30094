import { queryOptions, useQuery } from '@tanstack/react-query';
import type { openApiSpecSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { isProcessing } from './get-specs';

/** `GET /v1/orgs/{organizationId}/openapi/{specSlug}`. */
export function getSpec(organizationId: string, slug: string, signal?: AbortSignal) {
  return api.get<typeof openApiSpecSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/openapi/${encodeURIComponent(slug)}`,
    {
      signal,
    },
  );
}

export function specQueryOptions(organizationId: string, slug: string) {
  return queryOptions({
    queryKey: queryKeys.openapi.detail(organizationId, slug),
    queryFn: ({ signal }) => getSpec(organizationId, slug, signal),
    refetchInterval: (query) => (query.state.data && isProcessing(query.state.data) ? 1000 : false),
  });
}

export function useSpec(organizationId: string, slug: string) {
  return useQuery(specQueryOptions(organizationId, slug));
}
