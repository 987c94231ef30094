import { useMutation } from '@tanstack/react-query';
import { startSsoLinkBodySchema, startSsoLinkResultSchema } from '../../../../shared/contract';
import type { StartSsoLinkBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';

export { startSsoLinkBodySchema };

/**
 * `POST /v1/user/sso-links {provider, password}` → `{redirectURL}`: the identity provider's sign-in, which comes
 * back to `/account?linked=<providerId>`. Only from a password session (403 from a single sign-on one); a wrong
 * password is a 400 naming `password`.
 */
export function startSsoLink(body: StartSsoLinkBody) {
  return api.post('/user/sso-links', body, startSsoLinkResultSchema);
}

export function useStartSsoLink() {
  return useMutation({ mutationFn: startSsoLink });
}
