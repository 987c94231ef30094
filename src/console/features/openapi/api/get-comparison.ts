import { queryOptions, useQuery } from '@tanstack/react-query';
import type { openApiComparisonSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET …/openapi/{specSlug}/compare?from=&to=` (extension): operations added, removed and changed. */
export function getComparison(organizationId: string, slug: string, from: string, to: string, signal?: AbortSignal) {
  return api.get<typeof openApiComparisonSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/openapi/${encodeURIComponent(slug)}/compare`,
    { query: { from, to }, signal },
  );
}

export function comparisonQueryOptions(organizationId: string, slug: string, from: string, to: string) {
  return queryOptions({
    queryKey: queryKeys.openapi.comparison(organizationId, slug, from, to),
    queryFn: ({ signal }) => getComparison(organizationId, slug, from, to, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useComparison(organizationId: string, slug: string, from: string | undefined, to: string | undefined) {
  return useQuery({
    ...comparisonQueryOptions(organizationId, slug, from ?? '', to ?? ''),
    enabled: !!from && !!to && from !== to,
  });
}
