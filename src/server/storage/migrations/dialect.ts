import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Whether a migration runs on PostgreSQL (otherwise SQLite), for the few statements that differ. Migrations are
 * frozen in time: what this answers for a database must never change, since every migration that has shipped
 * reads it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
