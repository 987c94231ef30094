import { sql } from 'kysely';
import { fixedQuery, type Executor } from '../db.js';
import type { ApiTokensTable } from '../schema.js';
import { spaceForUserColumns, spaceForUserOf, type SpaceForUser, type SpaceForUserColumns } from './spaces.js';

export type TokenRow = ApiTokensTable;

export async function insertToken(db: Executor, row: TokenRow): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

/** What authenticating a request reads of its token. */
export type TokenForAuth = Pick<
  TokenRow,
  'id' | 'user_id' | 'kind' | 'csrf_hash' | 'session_id' | 'expires_at' | 'last_used_at' | 'sso_provider_id'
>;

/**
 * Runs on every request, so written as SQL text (building it with the query builder cost more than running it),
 * reading only the columns authentication needs: on SQLite each column read costs a fraction of a microsecond.
 */
const tokenByHash = fixedQuery(
  (tokenHash: string) => sql<TokenForAuth>`select id, user_id, kind, csrf_hash, session_id, expires_at,
    last_used_at, sso_provider_id from api_tokens where token_hash = ${tokenHash}`,
);

export async function findTokenByHash(db: Executor, tokenHash: string): Promise<TokenForAuth | undefined> {
  return (await tokenByHash(db, tokenHash))[0];
}

/** A token with the space a request names and the token owner's membership of its organization. */
export type TokenWithSpace = { token: TokenForAuth; space: SpaceForUser | undefined };

/**
 * findTokenByHash and findSpaceForUser in one statement, for reads of one space: on SQLite each statement costs
 * more than the joins do, and these two are all that `GET /v1/spaces/{id}` (and its sub-resources) read before
 * presenting. The space's columns come unaliased (s.*), the token's with a `token_` prefix.
 */
const tokenWithSpace = fixedQuery(
  (spaceId: string, tokenHash: string) => sql<
    SpaceForUserColumns & {
      token_id: string;
      token_user_id: string;
      token_kind: TokenRow['kind'];
      token_csrf_hash: string | null;
      token_session_id: string | null;
      token_expires_at: string | null;
      token_last_used_at: string | null;
      token_sso_provider_id: string | null;
    }
  >`select t.id as token_id, t.user_id as token_user_id, t.kind as token_kind, t.csrf_hash as token_csrf_hash,
      t.session_id as token_session_id, t.expires_at as token_expires_at, t.last_used_at as token_last_used_at,
      t.sso_provider_id as token_sso_provider_id, ${spaceForUserColumns}
    from api_tokens t
    left join spaces s on s.id = ${spaceId}
    left join organizations o on o.id = s.organization_id
    left join members m on m.organization_id = s.organization_id and m.user_id = t.user_id
    where t.token_hash = ${tokenHash}`,
);

export async function findTokenWithSpace(
  db: Executor,
  tokenHash: string,
  spaceId: string,
): Promise<TokenWithSpace | undefined> {
  const row = (await tokenWithSpace(db, spaceId, tokenHash))[0];
  if (!row) return undefined;
  return {
    token: {
      id: row.token_id,
      user_id: row.token_user_id,
      kind: row.token_kind,
      csrf_hash: row.token_csrf_hash,
      session_id: row.token_session_id,
      expires_at: row.token_expires_at,
      last_used_at: row.token_last_used_at,
      sso_provider_id: row.token_sso_provider_id,
    },
    // Left joined: a space that does not exist reads as nulls.
    space: row.id === null ? undefined : spaceForUserOf(row),
  };
}

/** Records a use of a token; `from` (a lasting API token's) replaces the client it was last used from. */
export async function touchToken(
  db: Executor,
  id: string,
  at: string,
  expiresAt: string | null,
  from?: { ip?: string; userAgent?: string },
): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({
      last_used_at: at,
      expires_at: expiresAt,
      ...(from ? { ip: from.ip ?? null, user_agent: from.userAgent ?? null } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export function listUserTokens(db: Executor, userId: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', 'api')
    .where('session_id', 'is', null)
    .orderBy('id')
    .limit(take);
  if (after) q = q.where('id', '>', after[0]!);
  return q.execute();
}

export async function countUserTokens(db: Executor, userId: string): Promise<number> {
  const r = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'api')
    .where('session_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function deleteToken(db: Executor, userId: string, id: string, kind: 'api' | 'session'): Promise<boolean> {
  const r = await db
    .deleteFrom('api_tokens')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Deletes a session and the API token that was handed out with it. */
export async function deleteSession(db: Executor, userId: string, sessionId: string): Promise<void> {
  await db
    .deleteFrom('api_tokens')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('id', '=', sessionId), eb('session_id', '=', sessionId)]))
    .execute();
}

/** Deletes sessions and tokens past their expiry. */
export async function deleteExpiredTokens(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('api_tokens').where('expires_at', '<', now).execute();
}

export async function recordLoginFailure(db: Executor, row: { id: string; email: string; ip: string; at: string }) {
  await db.insertInto('login_attempts').values(row).execute();
}

export async function countLoginFailures(db: Executor, by: 'email' | 'ip', value: string, since: string) {
  const r = await db
    .selectFrom('login_attempts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(by, '=', value)
    .where('at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function countLoginFailuresOfPair(db: Executor, email: string, ip: string, since: string) {
  const r = await db
    .selectFrom('login_attempts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('email', '=', email)
    .where('ip', '=', ip)
    .where('at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function clearLoginFailures(db: Executor, email: string, ip: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('email', '=', email).where('ip', '=', ip).execute();
}

export async function deleteLoginAttemptsBefore(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('at', '<', before).execute();
}

/** The account's console sessions (not yet expired), by id. */
export function listUserSessions(db: Executor, userId: string, now: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('api_tokens')
    .select(['id', 'created_at', 'last_used_at', 'expires_at', 'user_agent', 'ip', 'sso_provider_id'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'session')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id')
    .limit(take);
  if (after) q = q.where('id', '>', after[0]!);
  return q.execute();
}
export type SessionRow = Awaited<ReturnType<typeof listUserSessions>>[number];

export async function countUserSessions(db: Executor, userId: string, now: string): Promise<number> {
  const r = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'session')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Whether the account has this session (unexpired or not). */
export async function hasSession(db: Executor, userId: string, sessionId: string): Promise<boolean> {
  return (await sessionStartedAt(db, userId, sessionId)) !== undefined;
}

/**
 * Signs out every session of the account but `keep` (null: all of them), with the API tokens handed out at those
 * sign-ins; lasting API tokens stay. Answers how many sessions ended.
 */
export async function deleteSessionsExcept(db: Executor, userId: string, keep: string | null): Promise<number> {
  let sessions = db.deleteFrom('api_tokens').where('user_id', '=', userId).where('kind', '=', 'session');
  let signInTokens = db.deleteFrom('api_tokens').where('user_id', '=', userId).where('session_id', 'is not', null);
  if (keep) {
    sessions = sessions.where('id', '<>', keep);
    signInTokens = signInTokens.where('session_id', '<>', keep);
  }
  await signInTokens.execute();
  const r = await sessions.executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Revokes every lasting API token of the account (not the tokens of its sign-ins). Answers how many. */
export async function deleteLastingTokens(db: Executor, userId: string): Promise<number> {
  const r = await db
    .deleteFrom('api_tokens')
    .where('user_id', '=', userId)
    .where('kind', '=', 'api')
    .where('session_id', 'is', null)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** When a session of the account began; undefined for no such session. */
export async function sessionStartedAt(db: Executor, userId: string, sessionId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('api_tokens')
    .select('created_at')
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('kind', '=', 'session')
    .executeTakeFirst();
  return row?.created_at;
}
