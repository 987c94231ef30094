import { useMutation } from '@tanstack/react-query';
import { ssoDiscoveryBodySchema, ssoDiscoveryResultSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';

export { ssoDiscoveryBodySchema };

/**
 * `POST /v1/auth/sso-discovery {email}` (public): the identity providers of the organizations that verified the
 * address's domain, each with its organization and start URL.
 */
export function discoverSso(email: string) {
  return api.post('/auth/sso-discovery', { email }, ssoDiscoveryResultSchema);
}

export function useSsoDiscovery() {
  return useMutation({ mutationFn: ({ email }: { email: string }) => discoverSso(email) });
}
