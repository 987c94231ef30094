import { queryOptions, useQuery } from '@tanstack/react-query';
import type { openApiVersionListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions`: newest first. */
export function getVersions(organizationId: string, slug: string, signal?: AbortSignal) {
  return getAllPages<typeof openApiVersionListSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/openapi/${encodeURIComponent(slug)}/versions`,
    {},
    signal,
  );
}

/**
 * Keyed by the spec's latest version too: when a processing makes a new one (the spec is polled while it is
 * processed), the list is read again.
 */
export function versionsQueryOptions(organizationId: string, slug: string, lastVersion: string | undefined) {
  return queryOptions({
    queryKey: [...queryKeys.openapi.versions(organizationId, slug), lastVersion ?? 'none'],
    queryFn: ({ signal }) => getVersions(organizationId, slug, signal),
  });
}

export function useVersions(organizationId: string, slug: string, lastVersion: string | undefined) {
  return useQuery(versionsQueryOptions(organizationId, slug, lastVersion));
}
