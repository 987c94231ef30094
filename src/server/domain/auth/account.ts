import { siteReach } from '../sites/published/site-reach.js';
import type { SiteTokenScope } from '../sites/published/site-token.js';
import type { Db } from '../../storage/db.js';
import { transaction } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { userPhotoPath } from '../../lib/urls.js';
import { hashPassword, verifyPassword, isPasswordHash } from '../../lib/secrets.js';
import * as users from '../../storage/repos/users.js';
import * as tokens from '../../storage/repos/tokens.js';
import * as members from '../../storage/repos/members.js';
import { keysetPage } from '../../storage/pagination.js';
import { ForbiddenError, InvalidError, NotFoundError } from '../errors.js';
import { decodeImage } from '../images.js';
import { USER_PHOTO_BYTES_MAX } from '../../../shared/contract/account.js';
import type { ChangePasswordBody, UpdateUserBody } from '../../../shared/contract/account.js';
import { createApiToken, getUser, recheckPassword, throttlePasswordAttempt, type Authenticated } from './service.js';
import type { CreateTokenBody } from '../../../shared/contract/auth.js';

/**
 * The signed-in person's own account: profile, password and console sessions. Everything here acts on the
 * caller's account only; another account's session is answered as not found.
 */

/** The session the caller's credential belongs to: the console session itself, or the one a sign-in token came with. */
export function currentSessionId(auth: Authenticated): string | null {
  return auth.kind === 'session' ? auth.tokenId : auth.sessionId;
}

/**
 * Changes the display name and/or the photo. A photo is decoded and checked (PNG, JPEG, GIF or WebP, at most
 * USER_PHOTO_BYTES_MAX) before anything is written; each upload gets a new id, so its URL changes with it.
 */
export async function updateProfile(db: Db, userId: string, body: UpdateUserBody) {
  const photo = typeof body.photo === 'string' ? decodeImage(body.photo, 'photo', USER_PHOTO_BYTES_MAX) : body.photo;
  return transaction(db, async (tx) => {
    const set: Parameters<typeof users.updateUser>[2] = {};
    if (body.displayName !== undefined) set.display_name = body.displayName;
    if (photo === null) {
      await users.deleteUserPhoto(tx, userId);
      set.photo_url = null;
    } else if (photo) {
      const id = newId();
      await users.putUserPhoto(tx, {
        user_id: userId,
        id,
        content_type: photo.contentType,
        data: photo.data,
        created_at: nowIso(),
      });
      set.photo_url = userPhotoPath(userId, id);
    }
    await users.updateUser(tx, userId, set);
    const user = await users.findUserById(tx, userId);
    if (!user) throw new NotFoundError('User not found');
    return user;
  });
}

/**
 * `GET /v1/users/{userId}`: what anyone who works with an account may know of it (its name and photo), for the
 * account itself and for members of an organization it belongs to. Accounts are global: anyone else is answered
 * 404, as for an account that does not exist, so an id says nothing to a stranger.
 */
export async function getUserProfile(db: Db, callerId: string, userId: string) {
  const row = await users.findUserById(db, userId);
  if (!row || (row.id !== callerId && !(await members.sharesOrganization(db, callerId, row.id)))) {
    throw new NotFoundError('User not found');
  }
  return row;
}

/**
 * Someone's name and photo for a site API token's caller (a renderer drawing a mention on a published page): an
 * enabled member of the site's organization, while the site is published.
 */
export async function getMemberProfileForSite(db: Db, token: SiteTokenScope, userId: string) {
  await siteReach(db, token);
  const member = await members.findMembership(db, token.organizationId, userId);
  const row = member && !member.disabled ? await users.findUserById(db, userId) : undefined;
  if (!row) throw new NotFoundError('User not found');
  return row;
}

/** An account's current photo; an old id (replaced or removed photo) or an unknown account is not found. */
export async function getPhoto(db: Db, userId: string, photoId: string) {
  const photo = await users.findUserPhoto(db, userId, photoId);
  if (!photo) throw new NotFoundError('Photo not found');
  return photo;
}

/**
 * Changes the password once the current one is typed again: attempts count with sign-in's (same limits, per
 * account and address), a wrong one is a 400 naming `currentPassword`. Every other session of the account is
 * then signed out, with the API tokens handed out at those sign-ins; the caller's own session stays. Lasting API
 * tokens are revoked too when `revokeTokens` asks; the answer lists those that still work.
 */
export async function changePassword(
  db: Db,
  auth: Authenticated,
  body: ChangePasswordBody,
  ip: string,
  passwordHashCost?: number,
) {
  const user = await getUser(db, auth.userId);
  const checked = await recheckPassword(db, user, body.currentPassword, ip, passwordHashCost);
  if (checked === 'no-password') {
    throw new InvalidError(
      'currentPassword',
      'This account has no password: it signs in through single sign-on, so there is none to change',
    );
  }
  if (checked === 'wrong') throw new InvalidError('currentPassword', 'The current password is not right');
  const passwordHash = await hashPassword(body.newPassword, passwordHashCost);
  return transaction(db, async (tx) => {
    await users.updateUser(tx, user.id, { password_hash: passwordHash });
    await tokens.clearLoginFailures(tx, user.email, ip);
    const signedOut = await tokens.deleteSessionsExcept(tx, user.id, currentSessionId(auth));
    const revokedTokens = body.revokeTokens ? await tokens.deleteLastingTokens(tx, user.id) : 0;
    // What still works: the first page of the account's token list (an account has a handful).
    return { signedOut, revokedTokens, remainingTokens: await tokens.listUserTokens(tx, user.id, undefined, 100) };
  });
}

/** How long after signing in an account without a password (single sign-on) may create a token without signing in again. */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

/**
 * Creates a lasting API token. A sign-in (the console's session, or the token handed out with it) confirms who it
 * is first: the password typed again (attempts count with sign-in's), or, for an account that signs in through
 * single sign-on only, a sign-in less than RECENT_SIGN_IN_MS old. A lasting token may create another as it is.
 */
export async function createToken(db: Db, auth: Authenticated, body: CreateTokenBody, ip: string) {
  const session = currentSessionId(auth);
  if (session !== null) {
    const user = await getUser(db, auth.userId);
    const usable = isPasswordHash(user.password_hash) ? user.password_hash : undefined;
    if (usable) {
      if (!body.password) throw new InvalidError('password', 'Type your password to create a token');
      await throttlePasswordAttempt(db, user.email, ip);
      if (!(await verifyPassword(body.password, usable))) {
        throw new InvalidError('password', 'The password is not right');
      }
      await tokens.clearLoginFailures(db, user.email, ip);
    } else {
      const started = await tokens.sessionStartedAt(db, auth.userId, session);
      if (!started || Date.now() - Date.parse(started) > RECENT_SIGN_IN_MS) {
        throw new ForbiddenError(
          `Sign in again to create a token: an account that signs in through single sign-on creates one within ${RECENT_SIGN_IN_MS / 60_000} minutes of signing in`,
        );
      }
    }
  }
  return createApiToken(db, auth.userId, body.label, auth.ssoProviderId);
}

/** The account's console sessions not yet expired, by id (keyset-paginated). */
export function listSessions(db: Db, userId: string, page: string | undefined, limit: number) {
  const now = nowIso();
  return keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => tokens.listUserSessions(db, userId, now, after, take),
    count: () => tokens.countUserSessions(db, userId, now),
    key: (row) => [row.id],
  });
}

/** Signs out one session of the caller's account (it may be the caller's own); another account's is not found. */
export async function signOutSession(db: Db, userId: string, sessionId: string): Promise<void> {
  await transaction(db, async (tx) => {
    if (!(await tokens.hasSession(tx, userId, sessionId))) throw new NotFoundError('Session not found');
    await tokens.deleteSession(tx, userId, sessionId);
  });
}

/** Signs out every session of the account but the caller's own; answers how many. */
export function signOutOtherSessions(db: Db, auth: Authenticated): Promise<number> {
  return tokens.deleteSessionsExcept(db, auth.userId, currentSessionId(auth));
}
