import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { INVITE_EMAILS_MAX, inviteUsersBodySchema } from '../../../../shared/contract';
import type { InviteUsersBody, inviteUsersResultSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { parseEmailList } from '../utils/invite';

/** One address as the contract takes it. */
const addressSchema = inviteUsersBodySchema.shape.emails.element.options[0];

/**
 * The form of "Invite by e-mail": the contract's body, with the addresses typed as text (one field) and parsed
 * into the contract's list, checked by the contract's rules; a refused address is named.
 */
export const inviteByEmailFormSchema = inviteUsersBodySchema.pick({ role: true }).extend({
  emails: z.string().transform((text, ctx) => {
    const emails = parseEmailList(text);
    const refused = emails.filter((email) => !addressSchema.safeParse(email).success);
    if (emails.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'Enter at least one e-mail address' });
    } else if (refused.length > 0) {
      const what = refused.length === 1 ? 'an e-mail address' : 'e-mail addresses';
      ctx.addIssue({ code: 'custom', message: `Not ${what}: ${refused.join(', ')}` });
    } else if (emails.length > INVITE_EMAILS_MAX) {
      ctx.addIssue({ code: 'custom', message: `At most ${INVITE_EMAILS_MAX} addresses at a time` });
    } else {
      for (const issue of inviteUsersBodySchema.shape.emails.safeParse(emails).error?.issues ?? []) {
        ctx.addIssue({ code: 'custom', message: issue.message });
      }
    }
    return emails;
  }),
});

/**
 * `POST /v1/orgs/{organizationId}/invites {emails, role}` → `{invited, unknownEmails}`: pending invitations for
 * the accounts with these addresses, which they accept or decline; addresses without an account are only reported.
 */
export function inviteByEmail(organizationId: string, body: InviteUsersBody) {
  return api.post<typeof inviteUsersResultSchema>(`/orgs/${encodeURIComponent(organizationId)}/invites`, body);
}

export function useInviteByEmail(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteUsersBody) => inviteByEmail(organizationId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.invitations.organization(organizationId) }),
  });
}
