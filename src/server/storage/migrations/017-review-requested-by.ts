import type { Kysely } from 'kysely';

/**
 * Who asked for a review, kept on the review itself: the request is removed once answered (the reviewer is no
 * longer waited for), and the review then says it answered a request (`requestedBy`, as the published contract's
 * ChangeRequestReview does), so the console keeps the requested reviewer listed with their verdict.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('change_request_reviews').addColumn('requested_by', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('change_request_reviews').dropColumn('requested_by').execute();
}
