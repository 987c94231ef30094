import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddEmailDomainBody, emailDomainEntrySchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /v1/orgs/{organizationId}/email-domains {domain}` → 201 (200 when it was there already), unverified. */
export function addEmailDomain(organizationId: string, body: AddEmailDomainBody) {
  return api.post<typeof emailDomainEntrySchema>(`/orgs/${encodeURIComponent(organizationId)}/email-domains`, body);
}

export function useAddEmailDomain(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddEmailDomainBody) => addEmailDomain(organizationId, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.emailDomains.list(organizationId) }),
        // The organization lists its domains too (`emailDomains`).
        queryClient.invalidateQueries({ queryKey: queryKeys.organizations.detail(organizationId) }),
      ]),
  });
}
