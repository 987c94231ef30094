import { sql, type Kysely } from 'kysely';

/**
 * Verified addresses (issue 30). `email_verified_at` is set once the account proved it reads its mailbox (a link
 * mailed to it, a reset link used) or when an address needs no proof: the instance owner's (the operator chose
 * it) and those of accounts an organization's identity provider created (in a domain the organization verified).
 * Every other existing account starts unverified: invitations to its address wait until it verifies.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'varchar(32)').execute();
  await db
    .updateTable('users')
    .set({ email_verified_at: sql`created_at` })
    .where((eb) =>
      eb.or([
        eb('instance_owner', '=', 1),
        eb.exists(
          eb
            .selectFrom('sso_identities')
            .select('sso_identities.user_id')
            .whereRef('sso_identities.user_id', '=', 'users.id')
            .where('sso_identities.kind', '=', 'created'),
        ),
      ]),
    )
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
