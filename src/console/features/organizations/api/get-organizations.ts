import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { organizationListSchema } from '../../../../shared/contract';
import type { Organization } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs`: every organization the user belongs to. */
export function getOrganizations(signal?: AbortSignal): Promise<Organization[]> {
  return getAllPages<typeof organizationListSchema>('/orgs', {}, signal);
}

export function organizationsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.organizations.list(),
    queryFn: ({ signal }) => getOrganizations(signal),
  });
}

export function useOrganizations() {
  return useSuspenseQuery(organizationsQueryOptions()).data;
}
