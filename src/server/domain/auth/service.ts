import type { Config } from '../../config.js';
import type { Db, Executor } from '../../storage/db.js';
import { transaction } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso, isoMinus } from '../../lib/time.js';
import { hashPassword, verifyPassword, dummyPasswordHash, newSecret, hashToken } from '../../lib/secrets.js';
import * as users from '../../storage/repos/users.js';
import * as tokens from '../../storage/repos/tokens.js';
import * as orgs from '../../storage/repos/organizations.js';
import { insertMembership } from '../../storage/repos/members.js';
import { ConflictError, ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../errors.js';
import type { SignupBody, LoginBody } from '../../../shared/contract/auth.js';
import { createOrganization } from '../organizations/service.js';

/** Failed logins allowed per e-mail (and, more loosely, per client address) in the window below. */
export const LOGIN_MAX_FAILURES_PER_EMAIL = 10;
export const LOGIN_MAX_FAILURES_PER_IP = 50;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** A token's last-use time is written at most this often, so reads stay reads. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface Authenticated {
  userId: string;
  tokenId: string;
  kind: 'api' | 'session';
  csrfHash: string | null;
}

async function newToken(db: Executor, userId: string, kind: 'api' | 'session', label: string, ttlSeconds?: number) {
  const token = newSecret(kind === 'api' ? 'ds_' : 'dss_');
  const csrf = kind === 'session' ? newSecret() : null;
  const now = nowIso();
  const row: tokens.TokenRow = {
    id: newId(),
    user_id: userId,
    kind,
    label,
    token_hash: hashToken(token),
    csrf_hash: csrf ? hashToken(csrf) : null,
    created_at: now,
    last_used_at: null,
    expires_at: ttlSeconds ? new Date(Date.now() + ttlSeconds * 1000).toISOString() : null,
  };
  await tokens.insertToken(db, row);
  return { token, csrf, row };
}

export function createApiToken(db: Executor, userId: string, label: string) {
  return newToken(db, userId, 'api', label);
}

export function createSession(db: Executor, userId: string, ttlSeconds: number) {
  return newToken(db, userId, 'session', 'Console session', ttlSeconds);
}

/** Accounts whose e-mail was invited before they had an account join those organizations on sign-up. */
async function claimEmailInvites(db: Executor, userId: string, email: string) {
  const invites = await orgs.emailInvitesFor(db, email);
  const now = nowIso();
  for (const invite of invites) {
    await insertMembership(db, {
      organization_id: invite.organization_id,
      user_id: userId,
      role: invite.role,
      disabled: 0,
      joined_at: now,
      last_seen_at: null,
    });
  }
  if (invites.length) await orgs.deleteEmailInvites(db, email);
  return invites.length;
}

export async function signup(db: Db, config: Config, body: SignupBody) {
  const email = body.email.toLowerCase();
  const invited = (await orgs.emailInvitesFor(db, email)).length > 0;
  if (config.signup === 'closed' && !invited) {
    throw new ForbiddenError('Sign-up is closed on this server: ask an administrator to invite you');
  }
  const passwordHash = await hashPassword(body.password);
  return transaction(db, async (tx) => {
    if (await users.findUserByEmail(tx, email)) throw new ConflictError('email: an account with this e-mail exists');
    const user: users.UserRow = {
      id: newId(),
      email,
      display_name: body.displayName,
      password_hash: passwordHash,
      photo_url: null,
      created_at: nowIso(),
    };
    await users.insertUser(tx, user);
    await claimEmailInvites(tx, user.id, email);
    const api = await createApiToken(tx, user.id, 'Created at sign-up');
    const session = await createSession(tx, user.id, config.sessionTtlSeconds);
    return { user, token: api.token, session };
  });
}

export async function login(db: Db, config: Config, body: LoginBody, ip: string) {
  const email = body.email.toLowerCase();
  const since = isoMinus(LOGIN_WINDOW_MS);
  const [byEmail, byIp] = await Promise.all([
    tokens.countLoginFailures(db, 'email', email, since),
    tokens.countLoginFailures(db, 'ip', ip, since),
  ]);
  if (byEmail >= LOGIN_MAX_FAILURES_PER_EMAIL || byIp >= LOGIN_MAX_FAILURES_PER_IP) {
    throw new TooManyRequestsError('Too many failed sign-in attempts: wait 15 minutes and try again', 900);
  }
  const user = await users.findUserByEmail(db, email);
  const ok = await verifyPassword(body.password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || !ok) {
    await tokens.recordLoginFailure(db, { id: newId(), email, ip, at: nowIso() });
    throw new UnauthorizedError('Wrong e-mail or password');
  }
  await tokens.clearLoginFailures(db, email);
  const api = await createApiToken(db, user.id, 'Created at sign-in');
  const session = await createSession(db, user.id, config.sessionTtlSeconds);
  return { user, token: api.token, session };
}

/** Resolves a bearer token or session token to its user; null when unknown or expired. */
export async function authenticate(
  db: Db,
  token: string,
  kind: 'api' | 'session',
  sessionTtlSeconds: number,
): Promise<Authenticated | null> {
  const row = await tokens.findTokenByHash(db, hashToken(token));
  if (!row || row.kind !== kind) return null;
  const now = Date.now();
  if (row.expires_at && Date.parse(row.expires_at) <= now) return null;
  if (!row.last_used_at || now - Date.parse(row.last_used_at) > TOUCH_EVERY_MS) {
    // Sessions slide: each use (at most once a minute) pushes the expiry forward.
    const expires = kind === 'session' ? new Date(now + sessionTtlSeconds * 1000).toISOString() : row.expires_at;
    await tokens.touchToken(db, row.id, new Date(now).toISOString(), expires);
  }
  return { userId: row.user_id, tokenId: row.id, kind, csrfHash: row.csrf_hash };
}

export async function logout(db: Db, auth: Authenticated): Promise<void> {
  await tokens.deleteToken(db, auth.userId, auth.tokenId, auth.kind);
}

/** False when the caller has no such token (already revoked, or someone else's). */
export function revokeToken(db: Db, userId: string, tokenId: string): Promise<boolean> {
  return tokens.deleteToken(db, userId, tokenId, 'api');
}

/**
 * First start on an empty database: the owner account and a first organization where the owner is admin.
 * Returns the credentials to print once when they were generated here.
 */
export async function bootstrapOwner(db: Db, config: Config) {
  return transaction(db, async (tx) => {
    if ((await users.countUsers(tx)) > 0) return null;
    const email = (config.admin.email ?? 'admin@docspace.local').toLowerCase();
    const password = config.admin.password ?? newSecret().slice(0, 20);
    const user: users.UserRow = {
      id: newId(),
      email,
      display_name: 'Owner',
      password_hash: await hashPassword(password),
      photo_url: null,
      created_at: nowIso(),
    };
    await users.insertUser(tx, user);
    const org = await createOrganization(tx, user.id, 'My organization');
    let token = config.admin.token;
    if (token) {
      await tokens.insertToken(tx, {
        id: newId(),
        user_id: user.id,
        kind: 'api',
        label: 'ADMIN_TOKEN',
        token_hash: hashToken(token),
        csrf_hash: null,
        created_at: nowIso(),
        last_used_at: null,
        expires_at: null,
      });
    } else {
      token = (await createApiToken(tx, user.id, 'Generated at first start')).token;
    }
    return {
      email,
      organizationId: org.id,
      generatedPassword: config.admin.password ? undefined : password,
      generatedToken: config.admin.token ? undefined : token,
    };
  });
}
