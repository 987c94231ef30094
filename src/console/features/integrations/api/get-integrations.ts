import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type {
  installedIntegrationListSchema,
  integrationListSchema,
  integrationSchema,
} from '../../../../shared/contract';
import type { IntegrationFilters } from '../../../../shared/contract';
import { api, getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type DirectoryFilters = Pick<IntegrationFilters, 'search' | 'category' | 'target'>;

/** `GET /v1/integrations`: the directory, 30 at a time. */
export function directoryQueryOptions(filters: DirectoryFilters) {
  return infiniteQueryOptions({
    queryKey: queryKeys.integrations.directory(filters),
    queryFn: ({ pageParam, signal }) =>
      api.get<typeof integrationListSchema>('/integrations', {
        query: { ...filters, limit: 30, page: pageParam },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next?.page,
  });
}

export function useDirectory(filters: DirectoryFilters) {
  return useInfiniteQuery(directoryQueryOptions(filters));
}

/** `GET /v1/integrations/{integrationName}`. */
export function integrationQueryOptions(name: string) {
  return queryOptions({
    queryKey: queryKeys.integrations.detail(name),
    queryFn: ({ signal }) => api.get<typeof integrationSchema>(`/integrations/${encodeURIComponent(name)}`, { signal }),
  });
}

export function useIntegration(name: string) {
  return useQuery(integrationQueryOptions(name));
}

/** `GET /v1/orgs/{organizationId}/integrations`: what is installed, with each installation's id. */
export function installedQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.integrations.installed(organizationId),
    queryFn: ({ signal }) =>
      getAllPages<typeof installedIntegrationListSchema>(
        `/orgs/${encodeURIComponent(organizationId)}/integrations`,
        {},
        signal,
      ),
  });
}

export function useInstalled(organizationId: string) {
  return useQuery(installedQueryOptions(organizationId));
}
