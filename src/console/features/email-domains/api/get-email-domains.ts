import { queryOptions, useQuery } from '@tanstack/react-query';
import type { emailDomainEntryListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/email-domains` (admins): each domain, verified or not, with its TXT challenge. */
export function getEmailDomains(organizationId: string, signal?: AbortSignal) {
  return api.get<typeof emailDomainEntryListSchema>(`/orgs/${encodeURIComponent(organizationId)}/email-domains`, {
    signal,
  });
}

export function emailDomainsQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.emailDomains.list(organizationId),
    queryFn: ({ signal }) => getEmailDomains(organizationId, signal),
    select: (list) => list.items,
  });
}

export function useEmailDomains(organizationId: string) {
  return useQuery(emailDomainsQueryOptions(organizationId));
}
