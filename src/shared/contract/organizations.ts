import { z } from 'zod';
import { roleOrGuestSchema, timestampSchema } from './common.js';
import { listSchema } from '../pagination.js';
import { newEmailSchema } from './auth.js';
import { ID_MAX, INVITE_ID_MAX, URL_MAX } from './constants.js';

export const ORG_TITLE_MIN = 2;
export const ORG_TITLE_MAX = 255;
export const ORG_HOSTNAME_MIN = 3;
export const ORG_HOSTNAME_MAX = 32;
export const ORG_LOGO_MAX = URL_MAX;
export const ORG_EMAIL_DOMAINS_MAX = 50;

export const orgTitleSchema = z.string().trim().min(ORG_TITLE_MIN).max(ORG_TITLE_MAX);

export const organizationSchema = z.object({
  object: z.literal('organization'),
  id: z.string(),
  title: z.string(),
  createdAt: timestampSchema,
  emailDomains: z.array(z.string()),
  hostname: z.string().optional(),
  type: z.enum(['business', 'community']),
  defaultRole: roleOrGuestSchema.optional(),
  defaultContent: z.object({ type: z.literal('site'), site: z.string() }).optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean(),
  plan: z.string(),
  mergeRules: z.object({ type: z.literal('none') }),
  trial: z.object({ status: z.literal('notapplicable') }),
  urls: z.object({ location: z.string(), app: z.string(), logo: z.string().optional() }),
  permissions: z.object({
    view: z.boolean(),
    admin: z.boolean(),
    ownTeam: z.boolean(),
    createContent: z.boolean(),
    createOpenAPISpec: z.boolean(),
    ingestConversations: z.boolean(),
    viewBilling: z.boolean(),
    listMembers: z.boolean(),
    listTeams: z.boolean(),
    listIntegrations: z.boolean(),
    listInstallations: z.boolean(),
    installIntegration: z.boolean(),
  }),
});
export type Organization = z.infer<typeof organizationSchema>;
export const organizationListSchema = listSchema(organizationSchema);

export const createOrganizationBodySchema = z.object({
  title: orgTitleSchema,
});
export type CreateOrganizationBody = z.infer<typeof createOrganizationBodySchema>;

export const emailDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{3,253}$)[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'Must be a domain name such as example.com');

export const updateOrganizationBodySchema = z.object({
  title: orgTitleSchema.optional(),
  emailDomains: z.array(emailDomainSchema).max(ORG_EMAIL_DOMAINS_MAX).optional(),
  hostname: z
    .string()
    .min(ORG_HOSTNAME_MIN)
    .max(ORG_HOSTNAME_MAX)
    .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/, 'Lowercase letters, digits and dashes')
    .optional(),
  defaultRole: roleOrGuestSchema.optional(),
  defaultContent: z
    .object({ type: z.literal('site'), site: z.string().min(1) })
    .nullable()
    .optional(),
  // Every member's browser loads the logo: an https address only (not javascript:, data:, file: or plain http).
  logo: z
    .url({ protocol: /^https$/, error: 'An https:// address of an image' })
    .max(ORG_LOGO_MAX)
    .nullable()
    .optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
});
export type UpdateOrganizationBody = z.infer<typeof updateOrganizationBodySchema>;

export const organizationParamsSchema = z.object({ organizationId: z.string().min(1).max(ID_MAX) });

export const emailDomainParamsSchema = z.object({ emailDomain: z.string().min(3).max(253) });
export const organizationsOfDomainSchema = z.object({ organizations: z.array(organizationSchema) });

// Invites

export const inviteLinkSchema = z.object({
  object: z.literal('invite'),
  id: z.string(),
  role: roleOrGuestSchema,
  redundant: z.boolean(),
});
export type InviteLink = z.infer<typeof inviteLinkSchema>;
export const inviteLinkListSchema = listSchema(inviteLinkSchema);

export const createInviteLinkBodySchema = z.object({ role: roleOrGuestSchema });
export type CreateInviteLinkBody = z.infer<typeof createInviteLinkBodySchema>;
export const updateInviteLinkBodySchema = z.object({ role: roleOrGuestSchema });

export const inviteParamsSchema = organizationParamsSchema.extend({ inviteId: z.string().min(1).max(INVITE_ID_MAX) });

/**
 * What an invite link leads to (extension, `GET /v1/orgs/{organizationId}/invites/{inviteId}`): shown to whoever
 * holds the link before they sign up or join. `membership` is the signed-in caller's, when they are in already.
 */
export const invitePreviewSchema = z.object({
  organization: z.object({ id: z.string(), title: z.string() }),
  role: roleOrGuestSchema,
  membership: z.object({ role: roleOrGuestSchema }).optional(),
});
export type InvitePreview = z.infer<typeof invitePreviewSchema>;

export const INVITE_EMAILS_MAX = 100;
export const inviteUsersBodySchema = z.object({
  emails: z
    .array(z.union([newEmailSchema, z.object({ email: newEmailSchema, role: roleOrGuestSchema })]))
    .min(1)
    .max(INVITE_EMAILS_MAX),
  role: roleOrGuestSchema.optional(),
  sso: z.boolean().optional(),
});
export type InviteUsersBody = z.infer<typeof inviteUsersBodySchema>;
export const inviteUsersResultSchema = z.object({
  users: z.array(z.string()),
  invited: z.number().int(),
  failedSSOEmails: z.array(z.string()).optional(),
  /** E-mails with no account here: nobody was added for them (share an invite link instead). */
  unknownEmails: z.array(z.string()),
});
