import type { Kysely } from 'kysely';

/**
 * Identity an organization cannot take: membership by consent (pending invitations), identities that bind a
 * SAML provider to the accounts it may sign in (created by it, or linked by their owner), the requests this
 * server sent to identity providers (InResponseTo binding), e-mail domains with their verification state, the
 * way each session signed in (password or which provider), and the instance owner.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('member_invitations')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)')
    .addColumn('invited_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('member_invitations_org_user')
    .on('member_invitations')
    .columns(['organization_id', 'user_id'])
    .unique()
    .execute();
  await db.schema.createIndex('member_invitations_user').on('member_invitations').columns(['user_id', 'id']).execute();

  // The accounts a provider may sign in: `created` by its just-in-time provisioning, or `linked` by their owner.
  await db.schema
    .createTable('sso_identities')
    .addColumn('provider_id', 'varchar(64)', (c) => c.notNull().references('saml_providers.id').onDelete('cascade'))
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('subject', 'varchar(254)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('sso_identities_pk', ['provider_id', 'subject'])
    .execute();
  await db.schema
    .createIndex('sso_identities_provider_user')
    .on('sso_identities')
    .columns(['provider_id', 'user_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('sso_identities_user')
    .on('sso_identities')
    .columns(['user_id', 'organization_id'])
    .execute();

  // AuthnRequests sent, until answered or expired: a response must answer one of them (InResponseTo).
  await db.schema
    .createTable('saml_requests')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('provider_id', 'varchar(64)', (c) => c.notNull().references('saml_providers.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saml_requests_expiry').on('saml_requests').column('expires_at').execute();

  await db.schema
    .createTable('org_domains')
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('domain', 'varchar(253)', (c) => c.notNull())
    .addColumn('token', 'varchar(64)', (c) => c.notNull())
    .addColumn('verified_at', 'varchar(32)')
    .addColumn('verified_by', 'varchar(16)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('org_domains_pk', ['organization_id', 'domain'])
    .execute();
  await db.schema.createIndex('org_domains_domain').on('org_domains').columns(['domain', 'organization_id']).execute();

  // null: signed in with a password; otherwise the SAML provider the session (and its tokens) came through.
  await db.schema.alterTable('api_tokens').addColumn('sso_provider_id', 'varchar(64)').execute();
  await db.schema
    .alterTable('users')
    .addColumn('instance_owner', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('login_attempts_email_ip').on('login_attempts').columns(['email', 'ip', 'at']).execute();

  // Existing data. The first account is the one created at first start: the instance owner.
  const first = await db.selectFrom('users').select('id').orderBy('created_at').orderBy('id').limit(1).execute();
  if (first[0]) await db.updateTable('users').set({ instance_owner: 1 }).where('id', '=', first[0].id).execute();

  // Domains already listed on organizations stay listed, unverified: they gave no power before either.
  const now = new Date().toISOString();
  const orgs = await db.selectFrom('organizations').select(['id', 'email_domains']).execute();
  for (const org of orgs as Array<{ id: string; email_domains: string }>) {
    let domains: string[];
    try {
      domains = JSON.parse(org.email_domains) as string[];
    } catch {
      domains = [];
    }
    for (const domain of new Set(domains)) {
      await db
        .insertInto('org_domains')
        .values({
          organization_id: org.id,
          domain,
          token: cryptoToken(),
          verified_at: null,
          verified_by: null,
          created_at: now,
        })
        .execute();
    }
  }

  // Accounts created by SSO before identities existed (no password, an SSO member) stay reachable through the
  // provider of their organization when it has exactly one.
  const ssoOnly = (await db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['members.organization_id', 'members.user_id', 'users.email'])
    .where('members.sso', '=', 1)
    .where('users.password_hash', '=', '!sso-only')
    .execute()) as Array<{ organization_id: string; user_id: string; email: string }>;
  for (const m of ssoOnly) {
    const providers = (await db
      .selectFrom('saml_providers')
      .select('id')
      .where('organization_id', '=', m.organization_id)
      .execute()) as Array<{ id: string }>;
    if (providers.length !== 1) continue;
    await db
      .insertInto('sso_identities')
      .values({
        provider_id: providers[0]!.id,
        organization_id: m.organization_id,
        subject: m.email,
        user_id: m.user_id,
        kind: 'created',
        created_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

function cryptoToken(): string {
  return globalThis.crypto.randomUUID().replace(/-/g, '');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('login_attempts_email_ip').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('instance_owner').execute();
  await db.schema.alterTable('api_tokens').dropColumn('sso_provider_id').execute();
  for (const t of ['org_domains', 'saml_requests', 'sso_identities', 'member_invitations']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
