import type { Kysely } from 'kysely';

/** Comment threads on change requests and spaces: comments, their replies and emoji reactions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    // Null for a comment on the space itself rather than in one of its change requests.
    .addColumn('change_request_id', 'varchar(64)', (c) => c.references('change_requests.id').onDelete('cascade'))
    .addColumn('author_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page_id', 'varchar(64)')
    .addColumn('node_id', 'varchar(64)')
    .addColumn('node_preview', 'text')
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('replies', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('posted_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('edited_at', 'varchar(32)')
    .addColumn('resolved_at', 'varchar(32)')
    .addColumn('resolved_by', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('comments_thread')
    .on('comments')
    .columns(['space_id', 'change_request_id', 'posted_at', 'id'])
    .execute();

  await db.schema
    .createTable('comment_replies')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('comment_id', 'varchar(64)', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('author_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('posted_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('edited_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('comment_replies_comment')
    .on('comment_replies')
    .columns(['comment_id', 'posted_at', 'id'])
    .execute();

  await db.schema
    .createTable('comment_reactions')
    // The thread (deleting a comment deletes the reactions to it and to its replies).
    .addColumn('comment_id', 'varchar(64)', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    // The comment or reply reacted to.
    .addColumn('target_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('emoji', 'varchar(64)', (c) => c.notNull())
    .addColumn('reacted_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_reactions_pk', ['target_id', 'emoji', 'user_id'])
    .execute();
  await db.schema.createIndex('comment_reactions_comment').on('comment_reactions').column('comment_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('comment_reactions').ifExists().execute();
  await db.schema.dropTable('comment_replies').ifExists().execute();
  await db.schema.dropTable('comments').ifExists().execute();
}
