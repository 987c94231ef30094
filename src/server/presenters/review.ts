import type { Review } from '../../shared/contract/change-requests.js';
import type { ReviewView, RequestedReviewerView } from '../storage/repos/reviews.js';
import { presentUser } from './user.js';
import type { Urls } from '../lib/urls.js';

export function presentReview(
  urls: Urls,
  spaceId: string,
  cr: { id: string; revision_id: string },
  r: ReviewView,
): Review {
  return {
    object: 'change-request-review',
    id: r.id,
    revision: r.revision_id,
    reviewer: presentUser(urls, {
      id: r.reviewer_id,
      display_name: r.reviewer_name,
      email: r.reviewer_email,
      photo_url: r.reviewer_photo,
    }),
    ...(r.requested_by && r.requester_name !== null && r.requester_email !== null
      ? {
          requestedBy: presentUser(urls, {
            id: r.requested_by,
            display_name: r.requester_name,
            email: r.requester_email,
            photo_url: r.requester_photo,
          }),
        }
      : {}),
    status: r.status,
    // Reviewed an earlier state of the change request.
    outdated: r.revision_id !== cr.revision_id,
    ...(r.comment ? { body: { markdown: r.comment } } : {}),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    urls: { location: urls.api(`/spaces/${spaceId}/change-requests/${cr.id}/reviews/${r.id}`) },
  };
}

export function presentRequestedReviewer(urls: Urls, r: RequestedReviewerView) {
  return {
    object: 'change-request-requested-reviewer' as const,
    kind: 'user' as const,
    user: presentUser(urls, {
      id: r.user_id,
      display_name: r.reviewer_name,
      email: r.reviewer_email,
      photo_url: r.reviewer_photo,
    }),
    requestedBy: presentUser(urls, {
      id: r.requested_by,
      display_name: r.requester_name,
      email: r.requester_email,
      photo_url: r.requester_photo,
    }),
    revision: r.revision_id,
    createdAt: r.created_at,
  };
}
