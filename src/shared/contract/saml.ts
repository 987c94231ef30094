import { z } from 'zod';
import { idSchema, roleOrGuestSchema, timestampSchema, URL_MAX } from './common.js';
import { organizationParamsSchema } from './organizations.js';
import { teamSchema } from './teams.js';
import { listSchema } from '../pagination.js';

export const SAML_LABEL_MIN = 1;
export const SAML_LABEL_MAX = 30;
export const SAML_ENTITY_ID_MAX = 1024;
export const SAML_CERTIFICATE_MAX = 10000;
export const SAML_URL_MAX = URL_MAX;
export const SAML_STATUSES = ['pending', 'active'] as const;

/** An http(s) URL: the identity provider's sign-in address. */
const httpUrlSchema = z
  .string()
  .trim()
  .max(SAML_URL_MAX)
  .refine((v) => {
    try {
      const url = new URL(v);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'Must be an http(s) URL');

/**
 * The certificate is checked by shape here (a PEM block, so the console can say so before submitting); the
 * server also parses it as X.509 and refuses one that does not parse.
 */
const certificateSchema = z
  .string()
  .trim()
  .min(1)
  .max(SAML_CERTIFICATE_MAX)
  .refine(
    (v) => v.includes('-----BEGIN CERTIFICATE-----'),
    'Must be a PEM X.509 certificate (-----BEGIN CERTIFICATE-----)',
  );

const providerFields = {
  label: z.string().trim().min(SAML_LABEL_MIN).max(SAML_LABEL_MAX),
  /** The identity provider's entity id: the Issuer of its responses. */
  entityID: z.string().trim().min(1).max(SAML_ENTITY_ID_MAX),
  certificate: certificateSchema,
  ssoURL: httpUrlSchema,
  /** A team of the organization that people signing in join. */
  defaultTeam: idSchema.nullable(),
  /** Role of people who join through this provider (null: guest). */
  defaultRole: roleOrGuestSchema,
};

export const createSamlProviderBodySchema = z.object({
  ...providerFields,
  defaultTeam: providerFields.defaultTeam.optional(),
  defaultRole: providerFields.defaultRole.default('read'),
});
export type CreateSamlProviderBody = z.infer<typeof createSamlProviderBodySchema>;

export const updateSamlProviderBodySchema = z.object({
  label: providerFields.label.optional(),
  entityID: providerFields.entityID.optional(),
  certificate: providerFields.certificate.optional(),
  ssoURL: providerFields.ssoURL.optional(),
  defaultTeam: providerFields.defaultTeam.optional(),
  defaultRole: providerFields.defaultRole.optional(),
});
export type UpdateSamlProviderBody = z.infer<typeof updateSamlProviderBodySchema>;

export const samlProviderSchema = z.object({
  object: z.literal('saml-provider'),
  id: z.string(),
  label: z.string(),
  ssoURL: z.string(),
  entityID: z.string(),
  certificate: z.string(),
  defaultTeam: teamSchema.optional(),
  defaultRole: roleOrGuestSchema,
  createdAt: timestampSchema,
  /** `pending` until the first successful sign-in through it. */
  status: z.enum(SAML_STATUSES),
  /** What to enter in the identity provider: this server's endpoints for this provider. */
  service: z.object({ acsURL: z.string(), startURL: z.string(), entityID: z.string() }),
  urls: z.object({ location: z.string() }),
});
export type SamlProvider = z.infer<typeof samlProviderSchema>;
export const samlProviderListSchema = listSchema(samlProviderSchema);

/** The sign-in page's list: `GET /orgs/{organizationId}/sso` (public). */
export const ssoLoginListSchema = z.object({
  items: z.array(z.object({ id: z.string(), label: z.string(), startURL: z.string() })),
});

export const samlProviderParamsSchema = organizationParamsSchema.extend({ samlProviderId: idSchema });
/** The browser-facing sign-in endpoints of one provider. */
export const samlFlowParamsSchema = z.object({ samlProviderId: idSchema });
