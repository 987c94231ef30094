import type { Executor } from '../db.js';
import type { ReviewsTable, RequestedReviewersTable } from '../schema.js';

function reviewsWithUsers(db: Executor) {
  return db
    .selectFrom('change_request_reviews as r')
    .innerJoin('users as reviewer', 'reviewer.id', 'r.reviewer_id')
    .leftJoin('users as requester', 'requester.id', 'r.requested_by')
    .selectAll('r')
    .select([
      'reviewer.display_name as reviewer_name',
      'reviewer.email as reviewer_email',
      'reviewer.photo_url as reviewer_photo',
      'requester.display_name as requester_name',
      'requester.email as requester_email',
      'requester.photo_url as requester_photo',
    ]);
}
export type ReviewView = NonNullable<Awaited<ReturnType<typeof findReview>>>;

export function findReview(db: Executor, changeRequestId: string, id: string) {
  return reviewsWithUsers(db)
    .where('r.change_request_id', '=', changeRequestId)
    .where('r.id', '=', id)
    .executeTakeFirst();
}

export async function insertReview(db: Executor, row: ReviewsTable): Promise<void> {
  await db.insertInto('change_request_reviews').values(row).execute();
}

export function listReviews(db: Executor, changeRequestId: string, after: string[] | undefined, take: number) {
  let q = reviewsWithUsers(db)
    .where('r.change_request_id', '=', changeRequestId)
    .orderBy('r.created_at')
    .orderBy('r.id')
    .limit(take);
  if (after) q = q.where((eb) => eb(eb.refTuple('r.created_at', 'r.id'), '>', eb.tuple(after[0]!, after[1]!)));
  return q.execute();
}

export async function countReviews(db: Executor, changeRequestId: string): Promise<number> {
  const r = await db
    .selectFrom('change_request_reviews')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('change_request_id', '=', changeRequestId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

function reviewersWithUsers(db: Executor) {
  return db
    .selectFrom('change_request_reviewers as rr')
    .innerJoin('users as reviewer', 'reviewer.id', 'rr.user_id')
    .innerJoin('users as requester', 'requester.id', 'rr.requested_by')
    .selectAll('rr')
    .select([
      'reviewer.display_name as reviewer_name',
      'reviewer.email as reviewer_email',
      'reviewer.photo_url as reviewer_photo',
      'requester.display_name as requester_name',
      'requester.email as requester_email',
      'requester.photo_url as requester_photo',
    ]);
}
export type RequestedReviewerView = Awaited<ReturnType<typeof listRequestedReviewers>>[number];

export function listRequestedReviewers(
  db: Executor,
  changeRequestId: string,
  after: string[] | undefined,
  take: number,
) {
  let q = reviewersWithUsers(db)
    .where('rr.change_request_id', '=', changeRequestId)
    .orderBy('rr.created_at')
    .orderBy('rr.user_id')
    .limit(take);
  if (after) q = q.where((eb) => eb(eb.refTuple('rr.created_at', 'rr.user_id'), '>', eb.tuple(after[0]!, after[1]!)));
  return q.execute();
}

export function requestedReviewersIn(db: Executor, changeRequestId: string, userIds: string[]) {
  return reviewersWithUsers(db)
    .where('rr.change_request_id', '=', changeRequestId)
    .where('rr.user_id', 'in', userIds)
    .execute();
}

export async function countRequestedReviewers(db: Executor, changeRequestId: string): Promise<number> {
  const r = await db
    .selectFrom('change_request_reviewers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('change_request_id', '=', changeRequestId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function addRequestedReviewer(db: Executor, row: RequestedReviewersTable): Promise<void> {
  await db
    .insertInto('change_request_reviewers')
    .values(row)
    .onConflict((oc) => oc.columns(['change_request_id', 'user_id']).doNothing())
    .execute();
}

/** Who asked `userId` to review the change request, while the request stands. */
export async function findReviewRequester(db: Executor, changeRequestId: string, userId: string) {
  const row = await db
    .selectFrom('change_request_reviewers')
    .select('requested_by')
    .where('change_request_id', '=', changeRequestId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.requested_by ?? null;
}

export async function removeRequestedReviewer(db: Executor, changeRequestId: string, userId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('change_request_reviewers')
    .where('change_request_id', '=', changeRequestId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
