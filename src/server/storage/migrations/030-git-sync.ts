import type { Kysely } from 'kysely';

/**
 * Git Sync (domain/git-sync): a space mirrors a folder of a Git repository.
 * - `git_syncs`: one per space: where (url, branch, folder), how (direction, commit author, polling), its secrets
 *   (the token and the webhook secret, encrypted), and the sync state: the commit and the revision known to hold
 *   the same content (`commit_oid` ↔ `revision_id`), and a change request left open by a conflicting import.
 * - `git_sync_paths`: at that state, which file of the repository each page, file and reusable content is, with
 *   its blob id: a file whose blob did not change is not read again, and a page keeps its file's path.
 * - `git_sync_commits`: the commit behind a revision (`revision.git`), imported or exported.
 * - `git_sync_runs`: each sync, its trigger, outcome and error, as the Git Sync panel lists them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('git_syncs')
    .addColumn('space_id', 'varchar(64)', (c) => c.primaryKey().references('spaces.id').onDelete('cascade'))
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('branch', 'varchar(255)', (c) => c.notNull())
    .addColumn('root', 'varchar(512)', (c) => c.notNull())
    .addColumn('content_root', 'varchar(512)')
    .addColumn('direction', 'varchar(16)', (c) => c.notNull())
    .addColumn('secrets', 'text', (c) => c.notNull())
    .addColumn('author_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('author_email', 'varchar(255)', (c) => c.notNull())
    .addColumn('poll_minutes', 'integer', (c) => c.notNull())
    .addColumn('provider', 'varchar(32)')
    .addColumn('tree_url', 'varchar(2048)')
    .addColumn('commit_oid', 'varchar(64)')
    .addColumn('revision_id', 'varchar(64)')
    .addColumn('conflict_change_request_id', 'varchar(64)')
    .addColumn('synced_at', 'varchar(32)')
    .addColumn('polled_at', 'varchar(32)')
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('git_sync_paths')
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('object_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('blob_oid', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('git_sync_paths_pk', ['space_id', 'path'])
    .execute();
  await db.schema
    .createIndex('git_sync_paths_object')
    .on('git_sync_paths')
    .columns(['space_id', 'object_id'])
    .execute();
  await db.schema
    .createTable('git_sync_commits')
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('revision_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('oid', 'varchar(64)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('ref', 'varchar(255)', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)')
    .addColumn('created_by_gitbook', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('git_sync_commits_pk', ['space_id', 'revision_id'])
    .execute();
  await db.schema
    .createTable('git_sync_runs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('direction', 'varchar(16)', (c) => c.notNull())
    .addColumn('trigger', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('ref', 'varchar(255)', (c) => c.notNull())
    .addColumn('commit_oid', 'varchar(64)')
    .addColumn('revision_id', 'varchar(64)')
    .addColumn('change_request_id', 'varchar(64)')
    .addColumn('message', 'text')
    .addColumn('error', 'text')
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('git_sync_runs_space')
    .on('git_sync_runs')
    .columns(['space_id', 'created_at', 'id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['git_sync_runs', 'git_sync_commits', 'git_sync_paths', 'git_syncs']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
