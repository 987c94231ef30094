import type { Executor } from '../db.js';
import { isIntegrationAccountEmail } from '../../lib/integration-accounts.js';
import type { UserPhotosTable, UsersTable } from '../schema.js';

export type UserRow = UsersTable;

export function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** What the API shows of a user who posted, replied or reacted. */
export type UserSummary = Pick<UserRow, 'id' | 'display_name' | 'email' | 'photo_url'>;

/** The summaries of the users with these ids (each once; an unknown id is left out), by id. */
export async function usersByIds(db: Executor, ids: Iterable<string>): Promise<Map<string, UserSummary>> {
  const wanted = [...new Set(ids)];
  const out = new Map<string, UserSummary>();
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'display_name', 'email', 'photo_url'])
      .where('id', 'in', wanted.slice(i, i + 500))
      .execute();
    for (const row of rows) out.set(row.id, row);
  }
  return out;
}

/** The person with this address: never an integration's account (lib/integration-accounts.ts). */
export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  if (isIntegrationAccountEmail(email.toLowerCase())) return Promise.resolve(undefined);
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function insertUser(db: Executor, row: UserRow): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

/** Inserts the user unless an account has that e-mail (then false): two racing inserts never fail. */
export async function insertUserIfEmailFree(db: Executor, row: UserRow): Promise<boolean> {
  const r = await db
    .insertInto('users')
    .values(row)
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function countUsers(db: Executor): Promise<number> {
  const r = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function updateUser(
  db: Executor,
  id: string,
  set: Partial<
    Pick<UserRow, 'display_name' | 'photo_url' | 'password_hash' | 'password_reset_at' | 'email' | 'email_verified_at'>
  >,
): Promise<void> {
  await db.updateTable('users').set(set).where('id', '=', id).execute();
}

export type UserPhotoRow = UserPhotosTable;

/** Stores the account's photo, replacing the one it had. */
export async function putUserPhoto(db: Executor, row: UserPhotoRow): Promise<void> {
  await db.deleteFrom('user_photos').where('user_id', '=', row.user_id).execute();
  await db.insertInto('user_photos').values(row).execute();
}

export async function deleteUserPhoto(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('user_photos').where('user_id', '=', userId).execute();
}

/** The account's photo if `photoId` is still its current one. */
export function findUserPhoto(db: Executor, userId: string, photoId: string): Promise<UserPhotoRow | undefined> {
  return db
    .selectFrom('user_photos')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', photoId)
    .executeTakeFirst();
}

/** Whole rows of the users with these ids (an unknown id is left out), by id. */
export async function findUsersByIds(db: Executor, ids: Iterable<string>): Promise<Map<string, UserRow>> {
  const wanted = [...new Set(ids)];
  const out = new Map<string, UserRow>();
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await db
      .selectFrom('users')
      .selectAll()
      .where('id', 'in', wanted.slice(i, i + 500))
      .execute();
    for (const row of rows) out.set(row.id, row);
  }
  return out;
}

/** The daily digest's hour and time zone of an account. */
export async function updateDigestSettings(
  db: Executor,
  id: string,
  set: Partial<Pick<UserRow, 'digest_hour' | 'time_zone'>>,
): Promise<void> {
  await db.updateTable('users').set(set).where('id', '=', id).execute();
}
