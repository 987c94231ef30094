import { useMutation } from '@tanstack/react-query';
import type { ChangeEmailBody } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';

/** `POST /v1/user/email/verification`: a new link to confirm the account's address (409 once verified, 429 past 5 an hour). */
export function useResendVerification() {
  return useMutation({ mutationFn: () => api.post('/user/email/verification', {}) });
}

/**
 * `POST /v1/user/email {email, password}` → 202: a link goes to the new address (the account keeps its address
 * until it is followed), and the current address is told. A wrong password is a 400 naming `password`.
 */
export function useChangeEmail() {
  return useMutation({ mutationFn: (body: ChangeEmailBody) => api.post('/user/email', body) });
}
