import type { Kysely } from 'kysely';

/** Reviews of change requests and the reviewers asked for one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('change_request_reviews')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('change_request_id', 'varchar(64)', (c) =>
      c.notNull().references('change_requests.id').onDelete('cascade'),
    )
    .addColumn('reviewer_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('change_request_reviews_cr')
    .on('change_request_reviews')
    .columns(['change_request_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('change_request_reviewers')
    .addColumn('change_request_id', 'varchar(64)', (c) =>
      c.notNull().references('change_requests.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('requested_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('change_request_reviewers_pk', ['change_request_id', 'user_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('change_request_reviewers').ifExists().execute();
  await db.schema.dropTable('change_request_reviews').ifExists().execute();
}
