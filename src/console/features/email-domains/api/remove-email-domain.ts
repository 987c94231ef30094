import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EmailDomainEntry } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /v1/orgs/{organizationId}/email-domains/{domain}` → 205 (204 when it was gone already). */
export function removeEmailDomain(organizationId: string, domain: string) {
  return api.send('DELETE', `/orgs/${encodeURIComponent(organizationId)}/email-domains/${encodeURIComponent(domain)}`);
}

export function useRemoveEmailDomain(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entry: EmailDomainEntry) => removeEmailDomain(organizationId, entry.domain),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.emailDomains.list(organizationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.organizations.detail(organizationId) }),
      ]),
  });
}
