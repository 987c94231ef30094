import type { Config } from '../../config.js';
import type { Db } from '../../storage/db.js';
import { transaction } from '../../storage/db.js';
import * as users from '../../storage/repos/users.js';
import * as tokens from '../../storage/repos/tokens.js';
import * as accountTokens from '../../storage/repos/account-tokens.js';
import { findEmailByDedupeKey } from '../../storage/repos/mail.js';
import { enqueueJob } from '../../storage/repos/jobs.js';
import { hashPassword, hashToken, isPasswordHash } from '../../lib/secrets.js';
import { issueAccountLink, LINK_EXPIRED } from './account-links.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import type { JobHandler } from '../../jobs/queue.js';
import { wakeJobQueues } from '../../jobs/queue.js';
import { InvalidError, TooManyRequestsError } from '../errors.js';
import { queueEmail, takeRate, type MailSettings } from '../mail/outbox.js';
import { en } from '../mail/templates.js';
import { signIn, type SignInClient } from './service.js';
import { PASSWORD_RESET_MINUTES, type PasswordResetComplete } from '../../../shared/contract/account.js';

/**
 * Forgotten passwords (README, "Accounts and authentication"). Asking for a reset answers the same whatever the
 * address: the request only queues a job (one insert, for an account or not), and the job looks the account up
 * and mails a single-use link that works PASSWORD_RESET_MINUTES. Using the link sets the password, signs every
 * session out (this browser is signed in afresh), and keeps the account's API tokens unless asked to revoke
 * them: the reset page lists them first, and a message to the address says how many still work.
 */

export const PASSWORD_RESET_JOB = 'password-reset-request';
/** Reset requests one client address may make per hour (then 429). */
export const RESET_REQUESTS_PER_IP_HOUR = 20;
/** Reset messages one address receives per hour; further requests are dropped without a word. */
export const RESET_MAILS_PER_ADDRESS_HOUR = 5;
const HOUR_MS = 3_600_000;

export async function requestPasswordReset(db: Db, email: string, ip: string): Promise<void> {
  const address = email.toLowerCase();
  await transaction(db, async (tx) => {
    if (!(await takeRate(tx, 'reset-ip', ip, HOUR_MS, RESET_REQUESTS_PER_IP_HOUR))) {
      throw new TooManyRequestsError('Too many password reset requests from this address: try again in an hour', 3600);
    }
    // Keyed by the address: a second request while the first still waits is the same one.
    await enqueueJob(
      tx,
      {
        id: newId(),
        kind: PASSWORD_RESET_JOB,
        key: address,
        payload: JSON.stringify({ email: address, ip }),
        group_key: null,
      },
      nowIso(),
    );
  });
  wakeJobQueues();
}

/** The job behind a reset request: one message per job, whatever happens to the job. */
export function passwordResetJobHandler(db: Db, settings: MailSettings): JobHandler {
  return {
    async run(payload, job) {
      const { email, ip } = payload as { email: string; ip: string };
      const dedupeKey = `reset-request:${job.id}`;
      await transaction(db, async (tx) => {
        // Run again after a crash: its message exists, so nothing more is done (no second link).
        if (await findEmailByDedupeKey(tx, dedupeKey)) return;
        const user = await users.findUserByEmail(tx, email);
        if (!user) return;
        if (!(await takeRate(tx, 'reset-address', email, HOUR_MS, RESET_MAILS_PER_ADDRESS_HOUR))) return;
        const base = { dedupeKey, category: 'security' as const, to: user.email, toUserId: user.id };
        if (!isPasswordHash(user.password_hash)) {
          await queueEmail(tx, settings, {
            ...base,
            kind: 'password-reset-sso',
            mail: en.passwordResetSso({ serverUrl: settings.publicUrl, loginUrl: `${settings.publicUrl}/login` }),
          });
          return;
        }
        const { secret } = await issueAccountLink(tx, {
          userId: user.id,
          purpose: 'password-reset',
          email: user.email,
          ttlMs: PASSWORD_RESET_MINUTES * 60_000,
          prefix: 'dsr_',
          ip,
        });
        // In the fragment: never sent to the server by the browser, so never in an access log or a Referer.
        const url = `${settings.publicUrl}/reset-password#${secret}`;
        await queueEmail(tx, settings, {
          ...base,
          kind: 'password-reset',
          mail: en.passwordReset({ url, minutes: PASSWORD_RESET_MINUTES, serverUrl: settings.publicUrl }),
        });
      });
      wakeJobQueues();
    },
  };
}

/** `a•••@example.com` */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, Math.min(1, at))}•••${email.slice(at)}`;
}

async function usableLink(db: Db, token: string) {
  const link = await accountTokens.findUsableAccountToken(db, hashToken(token), 'password-reset', nowIso());
  const user = link && (await users.findUserById(db, link.user_id));
  // The account's address changed since the link was sent: it was meant for the old one.
  if (!link || !user || user.email !== link.email || !isPasswordHash(user.password_hash)) {
    throw new InvalidError('token', LINK_EXPIRED);
  }
  return { link, user };
}

/** What the reset page shows before the new password is typed: whose account, and its API tokens. */
export async function checkPasswordReset(db: Db, token: string) {
  const { user } = await usableLink(db, token);
  return { email: maskEmail(user.email), tokens: await tokens.listUserTokens(db, user.id, undefined, 100) };
}

export async function completePasswordReset(
  db: Db,
  config: Config,
  settings: MailSettings,
  body: PasswordResetComplete,
  client: SignInClient,
) {
  const { link, user } = await usableLink(db, body.token);
  const passwordHash = await hashPassword(body.newPassword, config.passwordHashCost);
  const result = await transaction(db, async (tx) => {
    const now = nowIso();
    // One conditional update: of two uses racing, one wins and the other meets an expired link.
    if (!(await accountTokens.consumeAccountToken(tx, link.id, now))) throw new InvalidError('token', LINK_EXPIRED);
    await users.updateUser(tx, user.id, { password_hash: passwordHash, password_reset_at: now });
    await accountTokens.supersedeAccountTokens(tx, user.id, 'password-reset', now);
    // Earlier failures (maybe the very attempts that made the owner forget) no longer slow the account down.
    await tokens.clearLoginFailures(tx, user.email, client.ip ?? '');
    const signedOut = await tokens.deleteSessionsExcept(tx, user.id, null);
    const revokedTokens = body.revokeTokens ? await tokens.deleteLastingTokens(tx, user.id) : 0;
    const remainingTokens = await tokens.listUserTokens(tx, user.id, undefined, 100);
    await queueEmail(tx, settings, {
      dedupeKey: `reset-done:${link.id}`,
      category: 'security',
      kind: 'password-was-reset',
      to: user.email,
      toUserId: user.id,
      mail: en.passwordWasReset({
        serverUrl: settings.publicUrl,
        at: now.slice(0, 16).replace('T', ' '),
        tokens: remainingTokens.length,
        accountUrl: `${settings.publicUrl}/account`,
      }),
    });
    const session = await signIn(tx, user.id, config.sessionTtlSeconds, null, client);
    return { user: { ...user, password_hash: passwordHash }, signedOut, revokedTokens, remainingTokens, ...session };
  });
  wakeJobQueues();
  return result;
}
