import { z } from 'zod';
import {
  SESSION_COOKIE,
  CSRF_COOKIE,
  CSRF_HEADER,
  DISPLAY_NAME_MAX,
  EMAIL_MAX,
  ID_MAX,
  INVITE_ID_MAX,
  PASSWORD_MIN,
} from './constants.js';
import { userSchema, timestampSchema } from './common.js';
import { listSchema } from '../pagination.js';

export { SESSION_COOKIE, CSRF_COOKIE, CSRF_HEADER, DISPLAY_NAME_MAX, EMAIL_MAX, PASSWORD_MIN };

export const PASSWORD_MAX = 200;
export const TOKEN_LABEL_MAX = 100;

export const emailSchema = z.email({ message: 'Must be a valid e-mail address' }).max(EMAIL_MAX);

/**
 * An address given to an account or an invitation: RFC 2606 reserves `.invalid`, no mail reaches it, and the
 * server's integrations' accounts have such addresses. (Signing in with one is left alone: an account made before
 * this rule keeps working, and no sign-in ever finds an integration's account.)
 */
export const newEmailSchema = emailSchema.refine((email) => !/\.invalid$/i.test(email), {
  message: 'Addresses under .invalid receive no mail',
});

/** The rules of a new password: at sign-up and when changing it. */
export const newPasswordSchema = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);

/** A person's display name: at sign-up and in the account's settings. */
export const displayNameSchema = z.string().trim().min(1).max(DISPLAY_NAME_MAX);

export const signupBodySchema = z.object({
  email: newEmailSchema,
  password: newPasswordSchema,
  displayName: displayNameSchema,
  /** An invite link to join (required when sign-up is closed): the organization and the link's id. */
  invite: z
    .object({ organization: z.string().min(1).max(ID_MAX), id: z.string().min(1).max(INVITE_ID_MAX) })
    .optional(),
  /** An invitation's link (its id and secret): the account joins, and its address counts as verified. */
  invitation: z.object({ id: z.string().min(1).max(ID_MAX), token: z.string().min(1).max(200) }).optional(),
});
export type SignupBody = z.infer<typeof signupBodySchema>;

export const loginBodySchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(PASSWORD_MAX),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

/** Answer of signup and login: the user and a new API token, shown once. */
export const authResultSchema = z.object({
  user: userSchema,
  token: z.string(),
});
export type AuthResult = z.infer<typeof authResultSchema>;

export const apiTokenSchema = z.object({
  object: z.literal('api-token'),
  id: z.string(),
  label: z.string(),
  createdAt: timestampSchema,
  lastUsedAt: timestampSchema.optional(),
  /** Where it was last used from: the client's address and User-Agent (recorded at most once a minute). */
  lastUsedFrom: z.object({ ip: z.string().optional(), userAgent: z.string().optional() }).optional(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = listSchema(apiTokenSchema);

export const createTokenBodySchema = z.object({
  label: z.string().trim().min(1).max(TOKEN_LABEL_MAX),
  /**
   * The account's password, asked again when the caller is a sign-in (the console's session, or the token handed
   * out with it): a lasting token outlives the sign-in, so whoever has the browser for a moment must not mint one.
   */
  password: z.string().max(PASSWORD_MAX).optional(),
});
export type CreateTokenBody = z.infer<typeof createTokenBodySchema>;

export const tokenParamsSchema = z.object({ tokenId: z.string().min(1).max(ID_MAX) });

/** The created token: its secret `token` appears only in this answer. */
export const createdTokenSchema = apiTokenSchema.extend({ token: z.string() });
export type CreatedToken = z.infer<typeof createdTokenSchema>;
