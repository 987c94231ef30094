import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { migrate, openStorage } from '../storage/db.js';
import { buildServer } from '../../../scripts/build-server.mjs';
import { databaseUrl, onServer } from './postgres.js';

/**
 * Migrates once per run, before any suite: a SQLite file that each suite copies, and on PostgreSQL (when
 * TEST_DATABASE_URL is set) a template database each suite clones with `CREATE DATABASE … TEMPLATE`. Running
 * every migration for each of the suite's hundred servers cost more than some suites' own tests. The run's
 * databases share one prefix, so the teardown drops them all, whichever suite forgot or crashed.
 */
export default async function setup(project: TestProject) {
  const run = crypto.randomBytes(4).toString('hex');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-template-'));
  const sqliteTemplate = path.join(dir, 'migrated.sqlite');
  const sqlite = openStorage({ kind: 'sqlite', file: sqliteTemplate });
  await migrate(sqlite);
  // Closing the last connection checkpoints the WAL into the file, so copying the one file copies everything.
  await sqlite.close();
  project.provide('sqliteTemplate', sqliteTemplate);
  // Worker threads run the compiled tasks, as in production, instead of compiling TypeScript in each new thread
  // (seconds on a loaded machine, which pushed big tasks past their time limit).
  // Built inside node_modules, so that the compiled files find the packages as the sources do.
  const build = path.resolve(
    fileURLToPath(new URL('../../../node_modules/.cache/docspace-test-build', import.meta.url)),
    `${project.name}-${run}`,
  );
  await buildServer(build);
  project.provide('serverBuild', build);

  // The SQLite project (vitest.config.ts) runs nothing on PostgreSQL.
  const url = project.name === 'sqlite' ? undefined : process.env.TEST_DATABASE_URL;
  const prefix = `ds_${run}_`;
  if (url) {
    const template = `${prefix}template`;
    await onServer(url, (client) => client.query(`create database ${template}`));
    const storage = openStorage({ kind: 'postgres', url: databaseUrl(url, template) });
    await migrate(storage);
    await storage.close();
    project.provide('postgresTemplate', template);
    project.provide('postgresPrefix', prefix);
  }

  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(build, { recursive: true, force: true });
    if (!url) return;
    await onServer(url, async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        `select datname from pg_database where datname like $1`,
        [`${prefix}%`],
      );
      for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
    });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    sqliteTemplate: string;
    postgresTemplate: string;
    postgresPrefix: string;
    /** The server compiled once for the run (scripts/build-server.mjs): its server/ and shared/. */
    serverBuild: string;
  }
}
