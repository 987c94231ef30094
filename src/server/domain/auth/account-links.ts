import type { Executor } from '../../storage/db.js';
import * as accountTokens from '../../storage/repos/account-tokens.js';
import { hashToken, newSecret } from '../../lib/secrets.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';

/**
 * Links mailed to an account (a password reset, an address to confirm): single-use secrets of which only the hash
 * is stored. Issuing one makes the account's earlier unused links of the same purpose stop working.
 */

/** What every use of a link that does not work answers, whatever the reason. */
export const LINK_EXPIRED = 'This link has expired or was already used: ask for a new one';

export type LinkPurpose = 'password-reset' | 'verify-email' | 'change-email';

/** A new link of `purpose` for `email`, working `ttlMs`: its id (a mail's dedupe key) and its secret. */
export async function issueAccountLink(
  tx: Executor,
  link: { userId: string; purpose: LinkPurpose; email: string; ttlMs: number; prefix: string; ip?: string | undefined },
): Promise<{ id: string; secret: string }> {
  const now = nowIso();
  await accountTokens.supersedeAccountTokens(tx, link.userId, link.purpose, now);
  const secret = newSecret(link.prefix);
  const id = newId();
  await accountTokens.insertAccountToken(tx, {
    id,
    user_id: link.userId,
    purpose: link.purpose,
    token_hash: hashToken(secret),
    email: link.email,
    created_at: now,
    expires_at: new Date(Date.parse(now) + link.ttlMs).toISOString(),
    used_at: null,
    created_ip: link.ip?.slice(0, 64) ?? null,
  });
  return { id, secret };
}
