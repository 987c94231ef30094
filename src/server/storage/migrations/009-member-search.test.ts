import { sql, type Migrator } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, storageAtMigration } from '../../test/harness.js';
import { migrate, type Storage } from '../db.js';
import { countMembers, listMembers, type MemberListFilter } from '../repos/members.js';
import type { MembersTable, UsersTable } from '../schema.js';
import { newOrganizationRow } from '../repos/organizations.js';

/**
 * Migration 009 indexes the users already there, can be undone and redone, and a search any index serves gives
 * what the scan gave: also when a fragment is in so many users that SQLite scans the organization instead.
 */
describeEachDialect('migration 009-member-search', (dialect) => {
  let storage: Storage;
  let drop: () => Promise<void>;
  let migrator: Migrator;
  const now = new Date().toISOString();

  beforeAll(async () => {
    ({ storage, drop, migrator } = await storageAtMigration(dialect, '008-identity'));
    for (const id of ['org-a', 'org-b']) {
      await storage.db
        .insertInto('organizations')
        .values(newOrganizationRow(id, id, now))
        .execute();
    }
    await addUsers([
      ['u1', 'Existing Person', 'existing@before.test', 'org-a'],
      ['u2', 'Another Existing', 'another@before.test', 'org-a'],
      ['u3', 'Existing Elsewhere', 'elsewhere@before.test', 'org-b'],
    ]);
  });
  afterAll(async () => {
    await storage.close();
    await drop();
  });

  let joined = 0;
  async function addUsers(rows: Array<[id: string, name: string, email: string, org: string]>) {
    for (let start = 0; start < rows.length; start += 500) {
      const users: UsersTable[] = [];
      const members: MembersTable[] = [];
      for (const [id, name, email, org] of rows.slice(start, start + 500)) {
        joined += 1;
        const at = new Date(Date.parse('2024-01-01T00:00:00.000Z') + joined * 1000).toISOString();
        users.push({ id, email, display_name: name, password_hash: '!', photo_url: null, created_at: at });
        members.push({
          organization_id: org,
          user_id: id,
          role: 'read',
          disabled: 0,
          joined_at: at,
          last_seen_at: null,
          sso: 0,
        });
      }
      await storage.db.transaction().execute(async (tx) => {
        await tx.insertInto('users').values(users).execute();
        await tx.insertInto('members').values(members).execute();
      });
    }
  }

  async function found(search: string, organizationId = 'org-a') {
    const f: MemberListFilter = { organizationId, search };
    const [rows, count] = await Promise.all([
      listMembers(storage.db, f, 'joinedAt', 'desc', undefined, 10_000),
      countMembers(storage.db, f),
    ]);
    expect(count, search).toBe(rows.length);
    return rows.map((r) => r.user_id);
  }

  /** What migration 009 created: SQLite's tables and triggers, PostgreSQL's indexes. */
  async function searchObjects(): Promise<string[]> {
    const r =
      dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master
            where name like 'user_search%' or name like 'users_search%' order by name`.execute(storage.db)
        : await sql<{ name: string }>`select indexname as name from pg_indexes
            where schemaname = current_schema() and indexname like '%_trgm' order by indexname`.execute(storage.db);
    return r.rows.map((row) => row.name);
  }
  const created =
    dialect === 'sqlite'
      ? expect.arrayContaining(['user_search', 'user_search_rows', 'users_search_delete', 'users_search_insert'])
      : ['users_display_name_trgm', 'users_email_trgm'];

  it('indexes the users that were there before it', async () => {
    expect(await searchObjects()).toEqual([]);
    const done = await migrator.migrateTo('009-member-search');
    expect(done.error).toBeUndefined();
    expect(done.results?.map((r) => r.migrationName)).toEqual(['009-member-search']);
    expect(await searchObjects()).toEqual(created);
    expect(await found('existing')).toEqual(['u2', 'u1']);
    expect(await found('EXISTING P')).toEqual(['u1']);
    expect(await found('another@before')).toEqual(['u2']);
    expect(await found('elsewhere')).toEqual([]);
    expect(await found('elsewhere', 'org-b')).toEqual(['u3']);
    await migrate(storage); // the later migrations, on top
  });

  it('is undone and redone', async () => {
    expect((await migrator.migrateTo('008-identity')).error).toBeUndefined();
    expect(await searchObjects()).toEqual([]);
    await addUsers([['u4', 'Existing While Undone', 'undone@before.test', 'org-a']]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await searchObjects()).toEqual(created);
    expect(await found('existing')).toEqual(['u4', 'u2', 'u1']);
    expect(await found('while undone')).toEqual(['u4']);
  });

  it('answers a fragment thousands of users share as it answers a rare one', async () => {
    const many: Array<[string, string, string, string]> = [];
    for (let i = 0; i < 5_100; i++) {
      many.push([`c${i}`, `Crowd ${i}`, `crowd-${i}@crowd.test`, i % 2 ? 'org-a' : 'org-b']);
    }
    await addUsers(many);
    const inA = many.filter((m) => m[3] === 'org-a').map((m) => m[0]);
    expect(await found('crowd')).toEqual([...inA].reverse());
    expect(await found('CROWD-4099@')).toEqual(['c4099']);
    expect(await found('crowd-4098')).toEqual([]);
    // Pages by cursor, whether the fragment is too common for the index ('crowd') or not ('crowd-40': 111 users
    // of whom 55 in org-a, more than a page).
    const joinedAt = async (id: string) =>
      (await storage.db.selectFrom('members').select('joined_at').where('user_id', '=', id).executeTakeFirstOrThrow())
        .joined_at;
    const after = ['c4001', await joinedAt('c4001')] as const;
    const page = (search: string, order: 'asc' | 'desc') =>
      listMembers(storage.db, { organizationId: 'org-a', search }, 'joinedAt', order, [after[1], after[0]], 3);
    expect((await page('crowd', 'asc')).map((r) => r.user_id)).toEqual(['c4003', 'c4005', 'c4007']);
    expect((await page('crowd', 'desc')).map((r) => r.user_id)).toEqual(['c3999', 'c3997', 'c3995']);
    expect((await page('crowd-40', 'asc')).map((r) => r.user_id)).toEqual(['c4003', 'c4005', 'c4007']);
    expect((await page('crowd-40', 'desc')).map((r) => r.user_id)).toEqual(['c409', 'c407', 'c405']);
    const in40 = inA.filter((id) => id.startsWith('c40'));
    expect(in40).toHaveLength(55);
    expect(await found('crowd-40')).toEqual([...in40].reverse());
  });
});
