import { useMutation } from '@tanstack/react-query';
import type { ssoDiscoveryResultSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';

/**
 * `POST /v1/auth/sso-discovery {email}` (public): the identity providers of the organizations that verified the
 * address's domain, each with its organization and start URL.
 */
export function discoverSso(email: string) {
  return api.post<typeof ssoDiscoveryResultSchema>('/auth/sso-discovery', { email });
}

export function useSsoDiscovery() {
  return useMutation({ mutationFn: ({ email }: { email: string }) => discoverSso(email) });
}
