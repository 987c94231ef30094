import type { Config } from '../../config.js';
import type { IntegrationActor } from '../integrations/tokens.js';
import type { Db, Executor } from '../../storage/db.js';
import { transaction } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso, isoMinus } from '../../lib/time.js';
import {
  hashPassword,
  verifyPassword,
  dummyPasswordHash,
  newSecret,
  hashToken,
  isPasswordHash,
} from '../../lib/secrets.js';
import * as users from '../../storage/repos/users.js';
import * as tokens from '../../storage/repos/tokens.js';
import type { SpaceForUser } from '../../storage/repos/spaces.js';
import * as orgs from '../../storage/repos/organizations.js';
import { insertMembership } from '../../storage/repos/members.js';
import {
  ConflictError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../errors.js';
import { keysetPage } from '../../storage/pagination.js';
import type { SignupBody, LoginBody } from '../../../shared/contract/auth.js';
import { createOrganization } from '../organizations/service.js';
import { queueVerification } from './verification.js';
import { invitationForSignup, joinByInvitation } from '../organizations/invitations.js';
import { mailSettings } from '../mail/outbox.js';
import { wakeJobQueues } from '../../jobs/queue.js';

/**
 * Sign-in throttling (README, "Signing in"). Failures are counted per account and client address: past the
 * first limit that address is refused for the account, so an attacker elsewhere cannot lock the owner out. An
 * address failing on many accounts is refused everywhere. The account as a whole is only slowed down: each
 * failure beyond the free ones, from any address, adds a delay to every attempt, up to a maximum.
 */
export const LOGIN_MAX_FAILURES_PER_EMAIL_AND_IP = 10;
export const LOGIN_MAX_FAILURES_PER_IP = 50;
export const LOGIN_FREE_FAILURES_PER_EMAIL = 10;
export const LOGIN_DELAY_STEP_MS = 250;
export const LOGIN_DELAY_MAX_MS = 3000;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** The longest User-Agent a session records (the column's size). */
const USER_AGENT_MAX = 512;
/** A token's last-use time is written at most this often, so reads stay reads. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface Authenticated {
  userId: string;
  tokenId: string;
  kind: 'api' | 'session';
  csrfHash: string | null;
  /** The session this token was handed out with (the sign-in token), if any. */
  sessionId: string | null;
  /** null: the credential comes from a password sign-in; otherwise the SAML provider it came through. */
  ssoProviderId: string | null;
  /** An integration's script (integrations/tokens.ts): `userId` is then `integration:<name>`, nobody's account. */
  integration?: IntegrationActor;
}

async function newToken(
  db: Executor,
  userId: string,
  kind: 'api' | 'session',
  label: string,
  opts: { ttlSeconds?: number; sessionId?: string; ssoProviderId?: string | null; client?: SignInClient } = {},
) {
  const { ttlSeconds, sessionId, ssoProviderId, client } = opts;
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
    session_id: sessionId ?? null,
    created_at: now,
    last_used_at: null,
    expires_at: ttlSeconds ? new Date(Date.now() + ttlSeconds * 1000).toISOString() : null,
    sso_provider_id: ssoProviderId ?? null,
    ...(client?.userAgent ? { user_agent: client.userAgent.slice(0, USER_AGENT_MAX) } : {}),
    ...(client?.ip ? { ip: client.ip.slice(0, 64) } : {}),
  };
  await tokens.insertToken(db, row);
  return { token, csrf, row };
}

/**
 * A lasting API token. It carries the way its creator signed in (`ssoProviderId`): a token made in a session
 * that came through an organization's identity provider reaches that organization when it enforces SSO; one
 * made after a password sign-in does not.
 */
export function createApiToken(db: Executor, userId: string, label: string, ssoProviderId: string | null = null) {
  return newToken(db, userId, 'api', label, { ssoProviderId });
}

/**
 * A sign-in: the console's session, and an API token that belongs to it (it expires with the session's
 * lifetime and is revoked at sign-out), so signing in never leaves a permanent credential behind.
 */
export async function signIn(
  db: Executor,
  userId: string,
  ttlSeconds: number,
  ssoProviderId: string | null = null,
  client: SignInClient = {},
) {
  const session = await newToken(db, userId, 'session', 'Console session', { ttlSeconds, ssoProviderId, client });
  const api = await newToken(db, userId, 'api', 'Sign-in', { ttlSeconds, sessionId: session.row.id, ssoProviderId });
  return { session, token: api.token };
}

/**
 * Creates an account. With SIGNUP=closed, only through an invite link (its id is the secret an admin
 * shared), and the account joins that organization with the link's role.
 */
export async function signup(db: Db, config: Config, body: SignupBody, client: SignInClient = {}) {
  const email = body.email.toLowerCase();
  if (body.invite && body.invitation)
    throw new InvalidError('invitation', 'send an invite link or an invitation, not both');
  if (config.signup === 'closed' && !body.invite && !body.invitation) {
    throw new ForbiddenError('Sign-up is closed on this server: ask an administrator for an invite link');
  }
  const passwordHash = await hashPassword(body.password, config.passwordHashCost);
  const result = await transaction(db, async (tx) => {
    if (await users.findUserByEmail(tx, email)) throw new ConflictError('email: an account with this e-mail exists');
    // From an invitation's link: the secret came from the mailbox, so the address is verified at once.
    const invitation = body.invitation
      ? await invitationForSignup(tx, body.invitation.id, body.invitation.token, email).catch(() => {
          throw new InvalidError('invitation', 'This invitation is no longer valid, or is for another address');
        })
      : undefined;
    const now = nowIso();
    const user: users.UserRow = {
      id: newId(),
      email,
      display_name: body.displayName,
      password_hash: passwordHash,
      photo_url: null,
      created_at: now,
      email_verified_at: invitation ? now : null,
    };
    await users.insertUser(tx, user);
    if (invitation) await joinByInvitation(tx, invitation, user.id);
    if (body.invite) {
      const invite = await orgs.findInviteLink(tx, body.invite.organization, body.invite.id);
      const org = invite && (await orgs.findOrganization(tx, invite.organization_id));
      if (!invite || !org?.invite_links) throw new InvalidError('invite', 'no such invite link');
      await insertMembership(tx, {
        organization_id: invite.organization_id,
        user_id: user.id,
        role: invite.role,
        disabled: 0,
        joined_at: user.created_at,
        last_seen_at: null,
      });
    }
    // The address proves nothing until its owner follows the link mailed to it.
    if (!invitation) await queueVerification(tx, mailSettings(config), user, 'verify-email', email, client.ip);
    return { user, ...(await signIn(tx, user.id, config.sessionTtlSeconds, null, client)) };
  });
  wakeJobQueues();
  return result;
}

/** What a sign-in records of the client: shown in the account's list of sessions. */
export interface SignInClient {
  ip?: string;
  userAgent?: string;
}

/**
 * Counts an attempt at an account's password (a sign-in, or the current password typed to change it) from one
 * address, before checking it, so parallel attempts all count; refuses (429) or slows down past the limits above.
 * A success then clears that address's attempts (`clearLoginFailures`).
 */
export async function throttlePasswordAttempt(db: Db, email: string, ip: string): Promise<void> {
  const since = isoMinus(LOGIN_WINDOW_MS);
  await tokens.recordLoginFailure(db, { id: newId(), email, ip, at: nowIso() });
  const [byPair, byIp, byEmail] = await Promise.all([
    tokens.countLoginFailuresOfPair(db, email, ip, since),
    tokens.countLoginFailures(db, 'ip', ip, since),
    tokens.countLoginFailures(db, 'email', email, since),
  ]);
  if (byPair > LOGIN_MAX_FAILURES_PER_EMAIL_AND_IP || byIp > LOGIN_MAX_FAILURES_PER_IP) {
    throw new TooManyRequestsError('Too many failed sign-in attempts: wait 15 minutes and try again', 900);
  }
  const beyond = byEmail - 1 - LOGIN_FREE_FAILURES_PER_EMAIL;
  if (beyond > 0) await delay(Math.min(LOGIN_DELAY_MAX_MS, beyond * LOGIN_DELAY_STEP_MS));
}

/**
 * Checks the password a signed-in account types again (to change its password or its address): throttled with the
 * sign-ins of its address, and one scrypt whatever the account, so timing tells nothing. `'no-password'`: the
 * account was created by single sign-on and has none. The caller clears the attempts once its change is made.
 */
export async function recheckPassword(
  db: Db,
  user: { email: string; password_hash: string },
  password: string,
  ip: string,
  passwordHashCost?: number,
): Promise<'ok' | 'wrong' | 'no-password'> {
  await throttlePasswordAttempt(db, user.email, ip);
  const usable = isPasswordHash(user.password_hash) ? user.password_hash : undefined;
  const ok = await verifyPassword(password, usable ?? (await dummyPasswordHash(passwordHashCost)));
  return !usable ? 'no-password' : ok ? 'ok' : 'wrong';
}

export async function login(db: Db, config: Config, body: LoginBody, ip: string, userAgent?: string) {
  const email = body.email.toLowerCase();
  // The attempt is recorded before it is counted and checked, so parallel attempts all count; a success
  // clears the e-mail's attempts.
  await throttlePasswordAttempt(db, email, ip);
  const user = await users.findUserByEmail(db, email);
  // Every answer pays for one scrypt: unknown e-mails and accounts without a password (created by SSO) are
  // checked against a dummy hash, so timing tells nothing about which accounts exist or how they sign in.
  const usable = user && isPasswordHash(user.password_hash) ? user.password_hash : undefined;
  const ok = await verifyPassword(body.password, usable ?? (await dummyPasswordHash(config.passwordHashCost)));
  if (!user || !usable || !ok) throw new UnauthorizedError('Wrong e-mail or password');
  // Only this address's failures are forgotten: a guesser elsewhere stays blocked after the owner signs in.
  await tokens.clearLoginFailures(db, email, ip);
  return { user, ...(await signIn(db, user.id, config.sessionTtlSeconds, null, { ip, userAgent })) };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves a bearer token or session token to its user; null when unknown or expired. */
export async function authenticate(
  db: Db,
  token: string,
  kind: 'api' | 'session',
  sessionTtlSeconds: number,
  client: SignInClient = {},
): Promise<Authenticated | null> {
  const row = await tokens.findTokenByHash(db, hashToken(token));
  return row ? acceptToken(db, row, kind, sessionTtlSeconds, client) : null;
}

/**
 * `authenticate`, reading in the same statement the space `spaceId` with the caller's membership of its
 * organization (what `loadSpace` would read next). `space` is undefined when there is no such space; nothing
 * is read of it when the credential is refused.
 */
export async function authenticateWithSpace(
  db: Db,
  token: string,
  kind: 'api' | 'session',
  sessionTtlSeconds: number,
  spaceId: string,
  client: SignInClient = {},
): Promise<{ auth: Authenticated; space: SpaceForUser | undefined } | null> {
  const found = await tokens.findTokenWithSpace(db, hashToken(token), spaceId);
  const auth = found && (await acceptToken(db, found.token, kind, sessionTtlSeconds, client));
  return auth ? { auth, space: found.space } : null;
}

/**
 * The checks every credential passes once found: its kind and expiry; it records its use (at most once a minute),
 * and for a lasting API token where it was used from (its owner sees it beside the token; a session keeps the
 * client it signed in from).
 */
async function acceptToken(
  db: Db,
  row: tokens.TokenForAuth,
  kind: 'api' | 'session',
  sessionTtlSeconds: number,
  client: SignInClient,
): Promise<Authenticated | null> {
  if (row.kind !== kind) return null;
  const now = Date.now();
  if (row.expires_at && Date.parse(row.expires_at) <= now) return null;
  if (!row.last_used_at || now - Date.parse(row.last_used_at) > TOUCH_EVERY_MS) {
    // Sessions slide: each use (at most once a minute) pushes the expiry forward.
    const expires = kind === 'session' ? new Date(now + sessionTtlSeconds * 1000).toISOString() : row.expires_at;
    const lasting = row.kind === 'api' && row.session_id === null;
    const from = { ip: client.ip?.slice(0, 64), userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) };
    await tokens.touchToken(db, row.id, new Date(now).toISOString(), expires, lasting ? from : undefined);
  }
  return {
    userId: row.user_id,
    tokenId: row.id,
    kind,
    csrfHash: row.csrf_hash,
    sessionId: row.session_id,
    ssoProviderId: row.sso_provider_id ?? null,
  };
}

/**
 * Ends a sign-in: called with the console session, or with the API token handed out at sign-in, it revokes
 * both. A lasting API token is not ended by sign-out (revoke it with `DELETE /v1/user/tokens/{id}`).
 */
export async function logout(db: Db, auth: Authenticated): Promise<void> {
  const sessionId = auth.kind === 'session' ? auth.tokenId : auth.sessionId;
  if (sessionId) await tokens.deleteSession(db, auth.userId, sessionId);
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
      password_hash: await hashPassword(password, config.passwordHashCost),
      photo_url: null,
      created_at: nowIso(),
      instance_owner: 1,
      // The operator chose this address (ADMIN_EMAIL).
      email_verified_at: nowIso(),
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
        session_id: null,
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

export async function getUser(db: Db, userId: string) {
  const user = await users.findUserById(db, userId);
  if (!user) throw new NotFoundError('User not found');
  return user;
}

/** The caller's lasting API tokens (those handed out at sign-in belong to their session and are not listed). */
export function listTokens(db: Db, userId: string, page: string | undefined, limit: number) {
  return keysetPage({
    page,
    limit,
    arity: 1,
    rows: (after, take) => tokens.listUserTokens(db, userId, after, take),
    count: () => tokens.countUserTokens(db, userId),
    key: (row) => [row.id],
  });
}
