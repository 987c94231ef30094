import type { Executor } from '../db.js';
import type { TranslationSettingsTable } from '../schema.js';

export type TranslationRow = TranslationSettingsTable;

export function findTranslation(db: Executor, organizationId: string, id: string) {
  return db
    .selectFrom('translation_settings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertTranslation(db: Executor, row: TranslationRow): Promise<void> {
  await db.insertInto('translation_settings').values(row).execute();
}

export async function updateTranslation(db: Executor, id: string, patch: Partial<TranslationRow>): Promise<void> {
  await db.updateTable('translation_settings').set(patch).where('id', '=', id).execute();
}

export async function deleteTranslation(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom('translation_settings')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export function listTranslations(db: Executor, organizationId: string, after: string[] | undefined, take: number) {
  let q = db
    .selectFrom('translation_settings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .limit(take);
  if (after) q = q.where('id', '>', after[0]!);
  return q.execute();
}

export async function countTranslations(db: Executor, organizationId: string): Promise<number> {
  const r = await db
    .selectFrom('translation_settings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
