import { queryOptions, useQuery } from '@tanstack/react-query';
import { openApiVersionListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions`: newest first. */
export function getVersions(organizationId: string, slug: string, signal?: AbortSignal) {
  return getAllPages(
    `/orgs/${encodeURIComponent(organizationId)}/openapi/${encodeURIComponent(slug)}/versions`,
    openApiVersionListSchema,
    {},
    signal,
  );
}

export function versionsQueryOptions(organizationId: string, slug: string) {
  return queryOptions({
    queryKey: queryKeys.openapi.versions(organizationId, slug),
    queryFn: ({ signal }) => getVersions(organizationId, slug, signal),
  });
}

export function useVersions(organizationId: string, slug: string) {
  return useQuery(versionsQueryOptions(organizationId, slug));
}
