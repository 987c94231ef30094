import type { Db, Executor } from '../../storage/db.js';
import { transaction } from '../../storage/db.js';
import * as users from '../../storage/repos/users.js';
import * as tokens from '../../storage/repos/tokens.js';
import * as accountTokens from '../../storage/repos/account-tokens.js';
import { deleteLinkedIdentities } from '../../storage/repos/saml.js';
import { hashToken } from '../../lib/secrets.js';
import { issueAccountLink, LINK_EXPIRED } from './account-links.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { wakeJobQueues } from '../../jobs/queue.js';
import { ConflictError, ForbiddenError, InvalidError, TooManyRequestsError } from '../errors.js';
import { queueEmail, takeRate, type MailSettings } from '../mail/outbox.js';
import { en } from '../mail/templates.js';
import { recheckPassword } from './service.js';
import { maskEmail } from './recovery.js';
import { VERIFY_EMAIL_HOURS, type ChangeEmailBody } from '../../../shared/contract/account.js';

/**
 * Addresses proven by mail (README, "Verified addresses"). An account's address is verified once a link mailed to
 * it is followed: at sign-up, on request, and when the address changes (the new address confirms; until then the
 * account keeps the old one, which is told). A verified address is what invitations, e-mail domains and single
 * sign-on links trust; an address nobody verified proves nothing.
 */

/** Verification mails one account may ask for per hour (then 429). */
export const VERIFY_MAILS_PER_ACCOUNT_HOUR = 5;
const HOUR_MS = 3_600_000;

export type VerificationPurpose = 'verify-email' | 'change-email';

/**
 * Stores a new link for `email` (the account's address, or the one it moves to) and queues its mail, in the
 * caller's transaction; earlier links of the same purpose stop working.
 */
export async function queueVerification(
  tx: Executor,
  settings: MailSettings,
  user: Pick<users.UserRow, 'id' | 'display_name'>,
  purpose: VerificationPurpose,
  email: string,
  ip?: string,
): Promise<void> {
  const { id, secret } = await issueAccountLink(tx, {
    userId: user.id,
    purpose,
    email,
    ttlMs: VERIFY_EMAIL_HOURS * HOUR_MS,
    prefix: 'dsv_',
    ip,
  });
  const url = `${settings.publicUrl}/verify-email#${secret}`;
  const p = { url, hours: VERIFY_EMAIL_HOURS, serverUrl: settings.publicUrl, name: user.display_name };
  await queueEmail(tx, settings, {
    dedupeKey: `${purpose}:${id}`,
    category: 'security',
    kind: purpose,
    to: email,
    toUserId: user.id,
    mail: purpose === 'verify-email' ? en.verifyEmail(p) : en.confirmNewEmail(p),
  });
}

/** `POST /v1/user/email/verification`: a new link to the account's address. */
export async function resendVerification(db: Db, settings: MailSettings, userId: string, ip: string): Promise<void> {
  await transaction(db, async (tx) => {
    const user = await users.findUserById(tx, userId);
    if (!user) throw new InvalidError('user', 'no such account');
    if (user.email_verified_at) throw new ConflictError('Your address is already verified');
    if (!(await takeRate(tx, 'verify-account', userId, HOUR_MS, VERIFY_MAILS_PER_ACCOUNT_HOUR))) {
      throw new TooManyRequestsError('Too many messages asked for: try again in an hour', 3600);
    }
    await queueVerification(tx, settings, user, 'verify-email', user.email, ip);
  });
  wakeJobQueues();
}

/**
 * `POST /v1/user/email`: moves the account to another address once that address confirms. The password is typed
 * again (attempts count with sign-in's). The answer is the same whether or not another account uses the address
 * (that is found out, and refused, when the link is followed by the person who reads that mailbox).
 */
export async function requestEmailChange(
  db: Db,
  settings: MailSettings,
  userId: string,
  body: ChangeEmailBody,
  ip: string,
  passwordHashCost?: number,
): Promise<void> {
  const user = await users.findUserById(db, userId);
  if (!user) throw new InvalidError('user', 'no such account');
  const email = body.email.toLowerCase();
  const checked = await recheckPassword(db, user, body.password, ip, passwordHashCost);
  if (checked === 'no-password') {
    throw new ForbiddenError(
      "This account was created by your organization's single sign-on: its address is the identity provider's",
    );
  }
  if (checked === 'wrong') throw new InvalidError('password', 'is not your current password');
  if (email === user.email) throw new InvalidError('email', 'is already the address of your account');
  await transaction(db, async (tx) => {
    await tokens.clearLoginFailures(tx, user.email, ip);
    if (!(await takeRate(tx, 'verify-account', userId, HOUR_MS, VERIFY_MAILS_PER_ACCOUNT_HOUR))) {
      throw new TooManyRequestsError('Too many messages asked for: try again in an hour', 3600);
    }
    await queueVerification(tx, settings, user, 'change-email', email, ip);
    await queueEmail(tx, settings, {
      dedupeKey: `change-email-notice:${newId()}`,
      category: 'security',
      kind: 'email-change-requested',
      to: user.email,
      toUserId: user.id,
      mail: en.emailChangeRequested({
        serverUrl: settings.publicUrl,
        newAddress: maskEmail(email),
        resetUrl: `${settings.publicUrl}/forgot-password`,
      }),
    });
  });
  wakeJobQueues();
}

/**
 * `POST /v1/auth/verify-email`: follows a link. A sign-up's link marks the address verified (if the account still
 * has it); a change's link moves the account to the new address, verified, signs its other sessions out, unlinks
 * the sign-in providers it linked with the old address, and tells the old address. `keepSession`: the session
 * that followed the link, when it is the account's own.
 */
export async function verifyEmail(db: Db, settings: MailSettings, token: string, keepSession: string | null) {
  const hash = hashToken(token);
  const now = nowIso();
  const link =
    (await accountTokens.findUsableAccountToken(db, hash, 'verify-email', now)) ??
    (await accountTokens.findUsableAccountToken(db, hash, 'change-email', now));
  if (!link) throw new InvalidError('token', LINK_EXPIRED);
  const result = await transaction(db, async (tx) => {
    const user = await users.findUserById(tx, link.user_id);
    if (!user) throw new InvalidError('token', LINK_EXPIRED);
    if (link.purpose === 'verify-email') {
      // Sent to an address the account no longer has: it proves nothing about the current one.
      if (user.email !== link.email) throw new InvalidError('token', LINK_EXPIRED);
      if (!(await accountTokens.consumeAccountToken(tx, link.id, now))) throw new InvalidError('token', LINK_EXPIRED);
      if (!user.email_verified_at) await users.updateUser(tx, user.id, { email_verified_at: now });
      return { user: { ...user, email_verified_at: user.email_verified_at ?? now }, changed: false, signedOut: 0 };
    }
    const other = await users.findUserByEmail(tx, link.email);
    if (other && other.id !== user.id) {
      throw new ConflictError('email: another account uses this address now, so yours cannot move to it');
    }
    if (!(await accountTokens.consumeAccountToken(tx, link.id, now))) throw new InvalidError('token', LINK_EXPIRED);
    const old = user.email;
    await users.updateUser(tx, user.id, { email: link.email, email_verified_at: now });
    // Links sent for the old address (a reset, a verification) no longer apply.
    for (const purpose of ['password-reset', 'verify-email'] as const) {
      await accountTokens.supersedeAccountTokens(tx, user.id, purpose, now);
    }
    const signedOut = await tokens.deleteSessionsExcept(tx, user.id, keepSession);
    // A provider linked while the account had the old address asserted that address, not this one.
    await deleteLinkedIdentities(tx, user.id);
    await queueEmail(tx, settings, {
      dedupeKey: `email-changed:${link.id}`,
      category: 'security',
      kind: 'email-changed',
      to: old,
      toUserId: user.id,
      mail: en.emailChanged({
        serverUrl: settings.publicUrl,
        newAddress: maskEmail(link.email),
        resetUrl: `${settings.publicUrl}/forgot-password`,
      }),
    });
    return { user: { ...user, email: link.email, email_verified_at: now }, changed: true, signedOut };
  });
  wakeJobQueues();
  return result;
}
