import type { Executor } from '../db.js';
import type { ServerSecretsTable } from '../schema.js';

export function findServerSecret(db: Executor, name: string) {
  return db.selectFrom('server_secrets').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Stores the secret unless one of that name exists (the first writer wins, across processes). */
export async function insertServerSecretIfAbsent(db: Executor, row: ServerSecretsTable): Promise<void> {
  await db
    .insertInto('server_secrets')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}
