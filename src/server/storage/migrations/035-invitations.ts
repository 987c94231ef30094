import { sql, type Kysely } from 'kysely';

/**
 * Invitations by e-mail become invitations to an address (issue 30): they are mailed, whether or not an account
 * has the address, with a link whose secret's hash is `token_hash`; they expire (`expires_at`, pushed back by a
 * resend) and are counted (`sends`). They replace `member_invitations`, which were bound to an existing account
 * (SQLite cannot relax its NOT NULL, so a new table: pending rows are copied, with two weeks to run).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('org_invitations')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)')
    .addColumn('invited_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)')
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_sent_at', 'varchar(32)')
    .addColumn('sends', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('org_invitations_org_email')
    .on('org_invitations')
    .columns(['organization_id', 'email'])
    .unique()
    .execute();
  await db.schema.createIndex('org_invitations_email').on('org_invitations').columns(['email', 'id']).execute();
  const expires = new Date(Date.now() + 14 * 24 * 3600 * 1000).toISOString();
  await sql`insert into org_invitations (id, organization_id, email, role, invited_by, created_at, expires_at, sends)
    select id, organization_id, email, role, invited_by, created_at, ${expires}, 0 from member_invitations`.execute(db);
  await db.schema.dropTable('member_invitations').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  // member_invitations as migration 008 made it; invitations to addresses without an account cannot go back.
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
  await sql`insert into member_invitations (id, organization_id, user_id, email, role, invited_by, created_at)
    select i.id, i.organization_id, u.id, i.email, i.role, i.invited_by, i.created_at
    from org_invitations i join users u on u.email = i.email`.execute(db);
  await db.schema.dropTable('org_invitations').execute();
}
