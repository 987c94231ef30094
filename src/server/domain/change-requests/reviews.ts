import type { ServiceContext } from '../context.js';
import { transaction } from '../../storage/db.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { recordEvent, watch } from '../notifications/events.js';
import * as reviews from '../../storage/repos/reviews.js';
import { findMembership } from '../../storage/repos/members.js';
import { keysetPage } from '../../storage/pagination.js';
import { loadChangeRequest } from './service.js';
import { spaceLevel } from '../permissions/resolver.js';
import { spacePolicy } from '../spaces/policy.js';
import { isAuthor, isMerged } from './policy.js';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../errors.js';

/** Reviews: approve or request changes. Needs the review level; nobody reviews their own change request. */
export async function submitReview(
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  body: { status: 'approved' | 'changes-requested'; comment?: { markdown: string } },
) {
  return transaction(ctx.db, async (tx) => {
    const { cr, space } = await loadChangeRequest(tx, ctx, spaceId, idOrNumber, 'review', 'review it');
    if (isMerged(cr)) throw new ConflictError('The change request is merged: it can no longer be reviewed');
    if (isAuthor(cr, ctx.actor.userId)) throw new ForbiddenError('You cannot review your own change request');
    const now = nowIso();
    const id = newId();
    // A requested reviewer who reviewed is no longer waited for; the review remembers the request it answered.
    const requestedBy = await reviews.findReviewRequester(tx, cr.id, ctx.actor.userId);
    await reviews.insertReview(tx, {
      id,
      change_request_id: cr.id,
      reviewer_id: ctx.actor.userId,
      status: body.status,
      revision_id: cr.revision_id,
      comment: body.comment?.markdown ?? null,
      requested_by: requestedBy,
      created_at: now,
      updated_at: now,
    });
    if (requestedBy) await reviews.removeRequestedReviewer(tx, cr.id, ctx.actor.userId);
    await recordEvent(tx, {
      kind: 'review-submitted',
      organizationId: space.organization_id,
      spaceId: space.id,
      changeRequestId: cr.id,
      actorId: ctx.actor.userId,
      data: { status: body.status },
    });
    await watch(tx, { kind: 'change-request', id: cr.id }, [ctx.actor.userId], 'reviewer');
    return { cr, review: (await reviews.findReview(tx, cr.id, id))! };
  });
}

export async function listReviews(
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  page: string | undefined,
  limit: number,
) {
  const { cr } = await loadChangeRequest(ctx.db, ctx, spaceId, idOrNumber, 'view', 'read its reviews');
  const result = await keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => reviews.listReviews(ctx.db, cr.id, after, take),
    count: () => reviews.countReviews(ctx.db, cr.id),
    key: (r) => [r.created_at, r.id],
  });
  return { ...result, cr };
}

export async function getReview(ctx: ServiceContext, spaceId: string, idOrNumber: string, reviewId: string) {
  const { cr } = await loadChangeRequest(ctx.db, ctx, spaceId, idOrNumber, 'view', 'read its reviews');
  const review = await reviews.findReview(ctx.db, cr.id, reviewId);
  if (!review) throw new NotFoundError('Review not found');
  return { cr, review };
}

export async function listRequestedReviewers(
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  page: string | undefined,
  limit: number,
) {
  const { cr } = await loadChangeRequest(ctx.db, ctx, spaceId, idOrNumber, 'view', 'read its reviewers');
  return keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => reviews.listRequestedReviewers(ctx.db, cr.id, after, take),
    count: () => reviews.countRequestedReviewers(ctx.db, cr.id),
    key: (r) => [r.created_at, r.user_id],
  });
}

/** Asks members who can review the space to review (edit level needed); names the first user who cannot. */
export async function requestReviewers(ctx: ServiceContext, spaceId: string, idOrNumber: string, userIds: string[]) {
  return transaction(ctx.db, async (tx) => {
    const { cr, space } = await loadChangeRequest(tx, ctx, spaceId, idOrNumber, 'edit', 'request reviewers');
    if (isMerged(cr)) throw new ConflictError('The change request is merged');
    const now = nowIso();
    for (const [i, userId] of userIds.entries()) {
      const membership = await findMembership(tx, space.organization_id, userId);
      const { level } = await spaceLevel(tx, { userId }, space);
      if (!membership || !spacePolicy.can(level, 'review')) {
        throw new InvalidError(`users.${i}`, 'is not a member who can review this space');
      }
      await reviews.addRequestedReviewer(tx, {
        change_request_id: cr.id,
        user_id: userId,
        requested_by: ctx.actor.userId,
        revision_id: cr.revision_id,
        created_at: now,
      });
    }
    const asked = [...new Set(userIds)];
    if (asked.length) {
      await recordEvent(tx, {
        kind: 'review-requested',
        organizationId: space.organization_id,
        spaceId: space.id,
        changeRequestId: cr.id,
        actorId: ctx.actor.userId,
        data: { reviewers: asked },
      });
      await watch(tx, { kind: 'change-request', id: cr.id }, asked, 'reviewer');
    }
    return reviews.requestedReviewersIn(tx, cr.id, asked);
  });
}

export async function removeRequestedReviewer(
  ctx: ServiceContext,
  spaceId: string,
  idOrNumber: string,
  userId: string,
) {
  const { cr } = await loadChangeRequest(ctx.db, ctx, spaceId, idOrNumber, 'edit', 'change its reviewers');
  return reviews.removeRequestedReviewer(ctx.db, cr.id, userId);
}
