import { z } from 'zod';
import { ID_MAX, timestampSchema, userSchema } from './common.js';
import {
  PASSWORD_MAX,
  apiTokenSchema,
  displayNameSchema,
  emailSchema,
  newEmailSchema,
  newPasswordSchema,
} from './auth.js';
import { listSchema } from '../pagination.js';

/** Decoded bytes of an account's photo; PNG, JPEG, GIF or WebP (checked once decoded). */
export const USER_PHOTO_BYTES_MAX = 256 * 1024;
export const USER_PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/**
 * `PATCH /v1/user`: the caller's display name and photo. `photo` is the base64 of an image stored on this server
 * (served from the user's `photoURL`), or null to remove it; a field left out is left as it is.
 */
export const updateUserBodySchema = z
  .object({
    displayName: displayNameSchema.optional(),
    photo: z
      .string()
      .min(1)
      .max(Math.ceil((USER_PHOTO_BYTES_MAX * 4) / 3) + 4)
      .regex(/^[A-Za-z0-9+/\r\n]*={0,2}$/, 'Must be base64')
      .nullable()
      .optional(),
  })
  .refine((body) => body.displayName !== undefined || body.photo !== undefined, {
    message: 'Send displayName, photo or both',
  });
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

/** `GET /v1/users/{userId}`. */
export const userParamsSchema = z.object({ userId: z.string().min(1).max(ID_MAX) });

export const userPhotoParamsSchema = z.object({
  userId: z.string().min(1).max(ID_MAX),
  photoId: z.string().min(1).max(ID_MAX),
});

/**
 * `POST /v1/user/password`: the current password (typed again) and the new one, with sign-up's rules. The
 * account's other sessions are signed out; the one making the change stays.
 */
export const changePasswordBodySchema = z.object({
  currentPassword: z.string().min(1).max(PASSWORD_MAX),
  newPassword: newPasswordSchema,
  /** Revokes the account's lasting API tokens too (they are kept otherwise: the answer lists them). */
  revokeTokens: z.boolean().optional(),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** What `POST /v1/user/password` answers: sessions signed out, tokens revoked, and the tokens that still work. */
export const passwordChangedSchema = z.object({
  signedOut: z.number().int(),
  revokedTokens: z.number().int(),
  remainingTokens: z.array(apiTokenSchema),
});
export type PasswordChanged = z.infer<typeof passwordChangedSchema>;

/** What `POST /v1/user/password` and `DELETE /v1/user/sessions` answer: how many other sessions were signed out. */
export const signedOutSchema = z.object({ signedOut: z.number().int() });
export type SignedOut = z.infer<typeof signedOutSchema>;

/** A console sign-in of the caller's account, with what was recorded when it began. */
export const userSessionSchema = z.object({
  object: z.literal('session'),
  id: z.string(),
  createdAt: timestampSchema,
  lastUsedAt: timestampSchema.optional(),
  expiresAt: timestampSchema.optional(),
  /** The browser's User-Agent header at sign-in (up to 512 characters). */
  userAgent: z.string().optional(),
  /** The client address at sign-in (from X-Forwarded-For with TRUST_PROXY=true). */
  ip: z.string().optional(),
  /** How it signed in: a password, or single sign-on through an organization's identity provider. */
  method: z.enum(['password', 'sso']),
  /** The session making this request. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof userSessionSchema>;

export const userSessionListSchema = listSchema(userSessionSchema);

export const sessionParamsSchema = z.object({ sessionId: z.string().min(1).max(ID_MAX) });

/** Secrets of links mailed to an account (password reset): what the console reads from the link's fragment. */
export const ACCOUNT_LINK_TOKEN_MAX = 200;
/** Minutes a password reset link works. */
export const PASSWORD_RESET_MINUTES = 30;

/** `POST /v1/auth/password-reset`: mails a reset link when the address has an account (the answer never says). */
export const passwordResetRequestSchema = z.object({ email: emailSchema });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** `POST /v1/auth/password-reset/check`: is this link still good, and for which account. */
export const passwordResetCheckSchema = z.object({ token: z.string().min(1).max(ACCOUNT_LINK_TOKEN_MAX) });
export const passwordResetCheckResultSchema = z.object({
  /** The account's address, partly hidden (`a•••@example.com`). */
  email: z.string(),
  /** The account's lasting API tokens: a reset keeps them unless asked to revoke them. */
  tokens: z.array(apiTokenSchema),
});
export type PasswordResetCheckResult = z.infer<typeof passwordResetCheckResultSchema>;

/** `POST /v1/auth/password-reset/complete`: sets the password, signs every session out, and signs this one in. */
export const passwordResetCompleteSchema = z.object({
  token: z.string().min(1).max(ACCOUNT_LINK_TOKEN_MAX),
  newPassword: newPasswordSchema,
  /** Revokes the account's lasting API tokens too (kept otherwise, and listed in the answer). */
  revokeTokens: z.boolean().optional(),
});
export type PasswordResetComplete = z.infer<typeof passwordResetCompleteSchema>;
export const passwordResetResultSchema = passwordChangedSchema.extend({ user: userSchema, token: z.string() });
export type PasswordResetResult = z.infer<typeof passwordResetResultSchema>;

/** Hours a link confirming an address works. */
export const VERIFY_EMAIL_HOURS = 48;

/** `POST /v1/auth/verify-email`: follows a link mailed to confirm an address (at sign-up, or a change). */
export const verifyEmailBodySchema = z.object({ token: z.string().min(1).max(ACCOUNT_LINK_TOKEN_MAX) });
export const verifyEmailResultSchema = z.object({
  /** The account's address now, verified. */
  email: z.string(),
  /** True when the link moved the account to a new address. */
  changed: z.boolean(),
  /** Sessions signed out (a change of address signs out every session but the one that followed the link). */
  signedOut: z.number().int(),
});
export type VerifyEmailResult = z.infer<typeof verifyEmailResultSchema>;

/** `POST /v1/user/email`: the new address, confirmed by a link mailed to it; the password typed again. */
export const changeEmailBodySchema = z.object({ email: newEmailSchema, password: z.string().min(1).max(PASSWORD_MAX) });
export type ChangeEmailBody = z.infer<typeof changeEmailBodySchema>;
