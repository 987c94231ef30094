import type { Kysely } from 'kysely';

/**
 * A version of the comment threads of each space and change request, raised by every write to them (comment, reply,
 * reaction, edit, resolution, deletion) in the write's transaction. A poll of the threads names it in its ETag and
 * answers 304 without reading them when nothing changed; the row holding it is read anyway to check access.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['spaces', 'change_requests']) {
    await db.schema
      .alterTable(table)
      .addColumn('threads_version', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['spaces', 'change_requests']) {
    await db.schema.alterTable(table).dropColumn('threads_version').execute();
  }
}
