import { z } from 'zod';
import { roleOrGuestSchema, timestampSchema, idSchema } from './common.js';
import { emailSchema, PASSWORD_MAX } from './auth.js';
import { emailDomainSchema, organizationParamsSchema } from './organizations.js';
import { listSchema } from '../pagination.js';

/**
 * Identity extensions of this server (not in the GitBook contract): invitations that need the person's
 * consent, e-mail domains with their verification, sign-in discovery by e-mail, and linking an identity
 * provider to one's own account.
 */

/** A pending invitation as the organization's admins see it: the address and the role, nothing of the account. */
/** Days an invitation's link works after it was (last) sent. */
export const INVITATION_DAYS = 14;

export const orgInvitationSchema = z.object({
  object: z.literal('invitation'),
  id: z.string(),
  email: z.string(),
  role: roleOrGuestSchema,
  createdAt: timestampSchema,
  /** When its link stops working (a resend pushes it back). */
  expiresAt: timestampSchema,
  expired: z.boolean(),
  lastSentAt: timestampSchema.optional(),
  /** Times it was mailed. */
  sends: z.number().int(),
});
export type OrgInvitation = z.infer<typeof orgInvitationSchema>;
export const orgInvitationListSchema = listSchema(orgInvitationSchema);
export const orgInvitationParamsSchema = organizationParamsSchema.extend({ invitationId: idSchema });

/** A pending invitation as the invited person sees it. */
export const userInvitationSchema = z.object({
  object: z.literal('invitation'),
  id: z.string(),
  role: roleOrGuestSchema,
  organization: z.object({ id: z.string(), title: z.string() }),
  invitedBy: z.object({ displayName: z.string() }).optional(),
  createdAt: timestampSchema,
});
export type UserInvitation = z.infer<typeof userInvitationSchema>;
export const userInvitationListSchema = listSchema(userInvitationSchema);
export const invitationParamsSchema = z.object({ invitationId: idSchema });
export const acceptedInvitationSchema = z.object({ organization: z.string() });

/** The secret of an invitation's link (from the link's fragment). */
export const invitationTokenBodySchema = z.object({ token: z.string().min(1).max(200) });
/** `POST /v1/invitations/{id}/check`: what the link's holder is invited to. */
export const invitationCheckSchema = z.object({
  object: z.literal('invitation'),
  id: z.string(),
  email: z.string(),
  role: roleOrGuestSchema,
  organization: z.object({ id: z.string(), title: z.string() }),
  invitedBy: z.object({ displayName: z.string() }).optional(),
  expiresAt: timestampSchema,
  /** Whether an account uses the address: sign in to accept, or sign up from the link. */
  hasAccount: z.boolean(),
});
export type InvitationCheck = z.infer<typeof invitationCheckSchema>;

export const EMAIL_DOMAIN_VERIFY_METHODS = ['dns', 'owner'] as const;

export const emailDomainEntrySchema = z.object({
  object: z.literal('email-domain'),
  domain: z.string(),
  verified: z.boolean(),
  verifiedAt: timestampSchema.optional(),
  verifiedBy: z.enum(EMAIL_DOMAIN_VERIFY_METHODS).optional(),
  /** The DNS record that proves control of the domain. */
  challenge: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
  createdAt: timestampSchema,
});
export type EmailDomainEntry = z.infer<typeof emailDomainEntrySchema>;
export const emailDomainEntryListSchema = z.object({ items: z.array(emailDomainEntrySchema) });
export const addEmailDomainBodySchema = z.object({ domain: emailDomainSchema });
export type AddEmailDomainBody = z.infer<typeof addEmailDomainBodySchema>;
export const emailDomainEntryParamsSchema = organizationParamsSchema.extend({ domain: emailDomainSchema });
export const verifyEmailDomainBodySchema = z
  .object({ method: z.enum(EMAIL_DOMAIN_VERIFY_METHODS).default('dns') })
  .default({ method: 'dns' });

/** Sign-in discovery: `POST /v1/auth/sso-discovery`. */
export const ssoDiscoveryBodySchema = z.object({ email: emailSchema });
export const ssoDiscoveryResultSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      organization: z.object({ id: z.string(), title: z.string() }),
      startURL: z.string(),
    }),
  ),
});

/** Linking a provider to one's own account: `POST /v1/user/sso-links`. */
export const startSsoLinkBodySchema = z.object({
  provider: idSchema,
  /** The account's current password, typed again. */
  password: z.string().min(1).max(PASSWORD_MAX),
});
export type StartSsoLinkBody = z.infer<typeof startSsoLinkBodySchema>;
export const startSsoLinkResultSchema = z.object({ redirectURL: z.string() });
export const ssoLinkSchema = z.object({
  object: z.literal('sso-link'),
  provider: z.object({ id: z.string(), label: z.string() }),
  organization: z.object({ id: z.string(), title: z.string() }),
  /** The e-mail address the provider asserts. */
  subject: z.string(),
  /** `created`: the provider created this account; `linked`: its owner linked the provider. */
  kind: z.enum(['created', 'linked']),
  createdAt: timestampSchema,
});
export type SsoLink = z.infer<typeof ssoLinkSchema>;
export const ssoLinkListSchema = z.object({ items: z.array(ssoLinkSchema) });
export const ssoLinkParamsSchema = z.object({ providerId: idSchema });
