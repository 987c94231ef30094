import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { emailDomainEntrySchema } from '../../../../shared/contract';
import type { EmailDomainEntry } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `dns` or `owner`, as the contract names them. */
export type VerifyMethod = NonNullable<EmailDomainEntry['verifiedBy']>;

/**
 * `POST /v1/orgs/{organizationId}/email-domains/{domain}/verify {method}`: `dns` looks up the TXT record (409 saying
 * what is missing when it is not published); `owner` is the instance owner vouching for it (403 for anyone else).
 */
export function verifyEmailDomain(organizationId: string, domain: string, method: VerifyMethod) {
  return api.post<typeof emailDomainEntrySchema>(
    `/orgs/${encodeURIComponent(organizationId)}/email-domains/${encodeURIComponent(domain)}/verify`,
    { method },
  );
}

export function useVerifyEmailDomain(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ domain, method }: { domain: string; method: VerifyMethod }) =>
      verifyEmailDomain(organizationId, domain, method),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.emailDomains.list(organizationId) }),
  });
}
