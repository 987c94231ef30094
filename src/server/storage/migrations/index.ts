import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001-foundation.js';

/** Every migration, in order. Append only; never edit one that has shipped. */
const migrations: Record<string, Migration> = {
  '001-foundation': m001,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
