import type { Migrator } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, storageAtMigration } from '../../test/harness.js';
import type { Storage } from '../db.js';
import { newOrganizationRow } from '../repos/organizations.js';

/** Migration 040 gives each integration already published the account it writes as, named and pictured by it. */
describeEachDialect('migration 040-integration-accounts', (dialect) => {
  let storage: Storage;
  let drop: () => Promise<void>;
  let migrator: Migrator;
  const now = new Date().toISOString();

  beforeAll(async () => {
    ({ storage, drop, migrator } = await storageAtMigration(dialect, '039-integration-tokens'));
    await storage.db
      .insertInto('organizations')
      .values(newOrganizationRow('vendor', 'Vendor', now))
      .execute();
    for (const [name, icon] of [
      ['with-icon', 'icon-1'],
      ['plain', null],
    ] as const) {
      // The row as 039 knows it (no account yet).
      const { account_id: _none, ...row } = {
        name,
        organization_id: 'vendor',
        version: 1,
        title: `Title of ${name}`,
        description: 'd',
        summary: null,
        visibility: 'public',
        target: 'all',
        runtime: 'v2',
        scopes: '[]',
        categories: '[]',
        blocks: null,
        content_sources: null,
        configurations: null,
        external_links: '[]',
        content_security_policy: null,
        script: 'x',
        secrets: null,
        icon_asset_id: icon,
        preview_asset_ids: '[]',
        unfurl_domains: '',
        has_blocks: 0,
        has_content_sources: 0,
        dev_tunnel_url: null,
        dev_all: 0,
        account_id: null,
        created_at: now,
        updated_at: now,
      };
      await storage.db.insertInto('integrations').values(row).execute();
    }
  });
  afterAll(async () => {
    await storage.close();
    await drop();
  });

  it('makes an account for each integration, named and pictured by it, with an address nobody receives', async () => {
    expect((await migrator.migrateTo('040-integration-accounts')).error).toBeUndefined();
    const rows = await storage.db
      .selectFrom('integrations')
      .innerJoin('users', 'users.id', 'integrations.account_id')
      .select(['integrations.name', 'users.display_name', 'users.photo_url', 'users.email', 'users.password_hash'])
      .orderBy('integrations.name')
      .execute();
    expect(rows).toEqual([
      {
        name: 'plain',
        display_name: 'Title of plain',
        photo_url: null,
        email: expect.stringMatching(/@integrations\.invalid$/),
        password_hash: '',
      },
      {
        name: 'with-icon',
        display_name: 'Title of with-icon',
        photo_url: '/v1/integrations/with-icon/assets/icon-1',
        email: expect.stringMatching(/@integrations\.invalid$/),
        password_hash: '',
      },
    ]);
    // Undone and done again.
    expect((await migrator.migrateTo('039-integration-tokens')).error).toBeUndefined();
    expect((await migrator.migrateTo('040-integration-accounts')).error).toBeUndefined();
    const again = await storage.db.selectFrom('integrations').select('account_id').execute();
    expect(again.every((r) => r.account_id !== null)).toBe(true);
    const accounts = await storage.db.selectFrom('users').select('id').execute();
    expect(accounts.map((a) => a.id).sort()).toEqual(again.map((r) => r.account_id).sort());
  });
});
