import type { Executor } from '../db.js';
import type { EmailMessagesTable, EmailState } from '../schema.js';

export type EmailRow = EmailMessagesTable;

/** Inserts the message unless one with its dedupe key exists; true when it was inserted. */
export async function insertEmailIfNew(db: Executor, row: EmailRow): Promise<boolean> {
  const r = await db
    .insertInto('email_messages')
    .values(row)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function findEmail(db: Executor, id: string): Promise<EmailRow | undefined> {
  return db.selectFrom('email_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findEmailByMessageId(db: Executor, messageId: string): Promise<EmailRow | undefined> {
  return db.selectFrom('email_messages').selectAll().where('message_id', '=', messageId).executeTakeFirst();
}

export function findEmailByDedupeKey(db: Executor, key: string): Promise<EmailRow | undefined> {
  return db.selectFrom('email_messages').selectAll().where('dedupe_key', '=', key).executeTakeFirst();
}

/**
 * Moves a message from one of the states `from` to another, with more columns; false when it was in none of them
 * (another process moved it first). Every change of state goes through here, so two processes never both act.
 */
export async function moveEmail(
  db: Executor,
  id: string,
  from: readonly EmailState[],
  set: Partial<Omit<EmailRow, 'id'>> & { state: EmailState; updated_at: string },
  incrementAttempts = false,
): Promise<boolean> {
  const r = await db
    .updateTable('email_messages')
    .set((eb) => ({ ...set, ...(incrementAttempts ? { attempts: eb('attempts', '+', 1) } : {}) }))
    .where('id', '=', id)
    .where('state', 'in', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A page of the outbox, newest first (keyset on created_at, id). */
export function listEmails(
  db: Executor,
  filter: { state?: EmailState; to?: string },
  after: string[] | undefined,
  take: number,
) {
  let q = db
    .selectFrom('email_messages')
    .select([
      'id',
      'category',
      'kind',
      'to_address',
      'subject',
      'state',
      'attempts',
      'last_error',
      'created_at',
      'sent_at',
      'organization_id',
    ])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(take);
  if (filter.state) q = q.where('state', '=', filter.state);
  if (filter.to) q = q.where('to_address', '=', filter.to.toLowerCase());
  if (after) {
    const [at, id] = after as [string, string];
    q = q.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]));
  }
  return q.execute();
}

export async function countEmails(db: Executor, filter: { state?: EmailState; to?: string }): Promise<number> {
  let q = db.selectFrom('email_messages').select((eb) => eb.fn.countAll<number>().as('n'));
  if (filter.state) q = q.where('state', '=', filter.state);
  if (filter.to) q = q.where('to_address', '=', filter.to.toLowerCase());
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** The most recent failure recorded (the owner's mail status). */
export function lastEmailFailure(db: Executor) {
  return db
    .selectFrom('email_messages')
    .select(['last_error', 'updated_at'])
    .where('last_error', 'is not', null)
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Counts `amount` more in a fixed window and answers the count so far, atomically across processes. */
export async function incrementRate(
  db: Executor,
  scope: string,
  key: string,
  windowStart: string,
  amount = 1,
): Promise<number> {
  const row = await db
    .insertInto('email_rate_counters')
    .values({ scope, key, window_start: windowStart, count: amount })
    .onConflict((oc) =>
      oc
        .columns(['scope', 'key', 'window_start'])
        .doUpdateSet((eb) => ({ count: eb('email_rate_counters.count', '+', amount) })),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Removes sent and settled messages created before `sentBefore`, held ones before `heldBefore`, old counters. */
export async function purgeMail(db: Executor, sentBefore: string, heldBefore: string, countersBefore: string) {
  await db
    .deleteFrom('email_messages')
    .where('created_at', '<', sentBefore)
    .where('state', 'in', ['sent', 'failed', 'suppressed', 'uncertain'])
    .execute();
  await db.deleteFrom('email_messages').where('created_at', '<', heldBefore).where('state', '=', 'held').execute();
  await db.deleteFrom('email_rate_counters').where('window_start', '<', countersBefore).execute();
}
