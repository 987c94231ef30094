import { useMutation } from '@tanstack/react-query';
import type { StartSsoLinkBody, startSsoLinkResultSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';

/**
 * `POST /v1/user/sso-links {provider, password}` → `{redirectURL}`: the identity provider's sign-in, which comes
 * back to `/account?linked=<providerId>`. Only from a password session (403 from a single sign-on one); a wrong
 * password is a 400 naming `password`.
 */
export function startSsoLink(body: StartSsoLinkBody) {
  return api.post<typeof startSsoLinkResultSchema>('/user/sso-links', body);
}

export function useStartSsoLink() {
  return useMutation({ mutationFn: startSsoLink });
}
