import type { Executor } from '../db.js';
import type { AccountTokensTable } from '../schema.js';

export type AccountTokenRow = AccountTokensTable;

export async function insertAccountToken(db: Executor, row: AccountTokenRow): Promise<void> {
  await db.insertInto('account_tokens').values(row).execute();
}

/** Marks the account's unused links of this purpose used: a new link makes the earlier ones stop working. */
export async function supersedeAccountTokens(db: Executor, userId: string, purpose: string, now: string) {
  await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** A link still usable: not used, not expired. */
export function findUsableAccountToken(db: Executor, tokenHash: string, purpose: string, now: string) {
  return db
    .selectFrom('account_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Uses a link: one conditional update, so of two requests racing with it exactly one wins. */
export async function consumeAccountToken(db: Executor, id: string, now: string): Promise<boolean> {
  const r = await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function purgeAccountTokens(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('account_tokens').where('expires_at', '<', before).execute();
}
