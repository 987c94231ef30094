import { sql } from 'kysely';
import type { Executor } from '../db.js';
import type { ApiTokensTable } from '../schema.js';

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
export async function findTokenByHash(db: Executor, tokenHash: string): Promise<TokenForAuth | undefined> {
  const result = await sql<TokenForAuth>`select id, user_id, kind, csrf_hash, session_id, expires_at, last_used_at,
      sso_provider_id from api_tokens where token_hash = ${tokenHash}`.execute(db);
  return result.rows[0];
}

export async function touchToken(db: Executor, id: string, at: string, expiresAt: string | null): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: at, expires_at: expiresAt }).where('id', '=', id).execute();
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
