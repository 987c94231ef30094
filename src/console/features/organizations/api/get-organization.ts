import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { organizationSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}`. */
export function getOrganization(organizationId: string, signal?: AbortSignal) {
  return api.get<typeof organizationSchema>(`/orgs/${encodeURIComponent(organizationId)}`, { signal });
}

export function organizationQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.organizations.detail(organizationId),
    queryFn: ({ signal }) => getOrganization(organizationId, signal),
  });
}

export function useOrganization(organizationId: string) {
  return useSuspenseQuery(organizationQueryOptions(organizationId)).data;
}
