import { useId, useState } from 'react';
import { z } from 'zod';
import { REVIEW_COMMENT_MAX, ROLES } from '../../../../shared/contract';
import type { ChangeRequest, Review } from '../../../../shared/contract';
import { Button, IconButton } from '../../../components/ui/button';
import { TextareaField } from '../../../components/ui/field';
import { CloseIcon, UserIcon } from '../../../components/ui/icons';
import { Markdown } from '../../../components/ui/markdown';
import { ErrorState, FormError, Spinner } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { showServerError, useZodForm } from '../../../lib/form';
import { useOrganizationMembers } from '../api/get-organization-members';
import { useRequestedReviewers } from '../api/get-requested-reviewers';
import { useReviews } from '../api/get-reviews';
import { useRemoveRequestedReviewer } from '../api/remove-requested-reviewer';
import { useRequestReviewers } from '../api/request-reviewers';
import { useSubmitReview } from '../api/submit-review';
import { submitReviewBodySchema } from '../../../../shared/contract';
import '../change-requests.css';

interface PanelProps {
  organizationId: string;
  changeRequest: ChangeRequest;
  /** The signed-in user: nobody reviews their own change request. */
  currentUserId: string;
}

export function ReviewsPanel({ organizationId, changeRequest, currentUserId }: PanelProps) {
  return (
    <>
      <RequestedReviewers organizationId={organizationId} changeRequest={changeRequest} />
      <Reviews changeRequest={changeRequest} currentUserId={currentUserId} />
    </>
  );
}

/** Roles that can review, by organization role; the server checks the space's own level too. */
const REVIEWER_ROLES = new Set<string>(ROLES.slice(0, ROLES.indexOf('review') + 1));

// ---------- Requested reviewers ----------

function RequestedReviewers({
  organizationId,
  changeRequest,
}: {
  organizationId: string;
  changeRequest: ChangeRequest;
}) {
  const { space: spaceId, number } = changeRequest;
  const reviewers = useRequestedReviewers(spaceId, number);
  const reviews = useReviews(spaceId, number);
  const remove = useRemoveRequestedReviewer(spaceId, number);
  const toast = useToast();
  const [picking, setPicking] = useState(false);
  const canChange = changeRequest.permissions.edit;
  const requested = reviewers.data ?? [];
  // Those asked who have answered stay listed, with their latest verdict (the server no longer waits for them).
  const answered = answeredRequests(reviews.data ?? [], new Set(requested.map(({ user }) => user.id)));
  return (
    <section className="panel-card" aria-labelledby="reviewers-title">
      <h3 id="reviewers-title" className="panel-card-title">
        Reviewers
      </h3>
      {reviewers.isPending ? (
        <Spinner />
      ) : reviewers.isError ? (
        <p className="field-error">{errorMessage(reviewers.error)}</p>
      ) : requested.length + answered.length === 0 ? (
        <p className="panel-card-text">No review requested yet.</p>
      ) : (
        <ul className="people-list" aria-label="Requested reviewers">
          {answered.map((review) => (
            <li key={review.reviewer.id} className="person">
              <span className="avatar" aria-hidden="true">
                {initial(review.reviewer.displayName)}
              </span>
              <span className="person-name">{review.reviewer.displayName}</span>
              <span className={`badge review-${review.status}`}>
                {REVIEW_LABELS[review.status]}
                {review.outdated && <span className="visually-hidden"> (before the latest changes)</span>}
              </span>
            </li>
          ))}
          {requested.map(({ user }) => (
            <li key={user.id} className="person">
              <span className="avatar" aria-hidden="true">
                {initial(user.displayName)}
              </span>
              <span className="person-name">{user.displayName}</span>
              <span className="badge review-pending">Awaiting review</span>
              {canChange && (
                <IconButton
                  label={`Remove the review request for ${user.displayName}`}
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(user.id, {
                      onSuccess: () => toast.show(`Review request for ${user.displayName} removed`),
                      onError: (error) => toast.show(errorMessage(error), 'error'),
                    })
                  }
                >
                  <CloseIcon />
                </IconButton>
              )}
            </li>
          ))}
        </ul>
      )}
      {canChange &&
        (picking ? (
          <ReviewerPicker
            organizationId={organizationId}
            changeRequest={changeRequest}
            exclude={new Set([changeRequest.createdBy.id, ...requested.map(({ user }) => user.id)])}
            onDone={() => setPicking(false)}
          />
        ) : (
          <Button size="sm" onClick={() => setPicking(true)}>
            <UserIcon /> Request a review…
          </Button>
        ))}
    </section>
  );
}

function ReviewerPicker({
  organizationId,
  changeRequest,
  exclude,
  onDone,
}: {
  organizationId: string;
  changeRequest: ChangeRequest;
  exclude: ReadonlySet<string>;
  onDone: () => void;
}) {
  const members = useOrganizationMembers(organizationId, true);
  const request = useRequestReviewers(changeRequest.space, changeRequest.number);
  const toast = useToast();
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<string>();
  const id = useId();
  if (members.isPending) return <Spinner />;
  if (members.isError) return <ErrorState error={members.error} onRetry={() => void members.refetch()} />;
  const candidates = members.data.filter(
    (member) =>
      !member.disabled && member.role !== null && REVIEWER_ROLES.has(member.role) && !exclude.has(member.user.id),
  );
  return (
    <form
      className="reviewer-picker"
      onSubmit={(event) => {
        event.preventDefault();
        if (!chosen) return setError('Choose a member.');
        setError(undefined);
        request.mutate([chosen], {
          onSuccess: () => {
            const member = candidates.find((candidate) => candidate.user.id === chosen);
            toast.show(`Review requested from ${member?.user.displayName ?? 'the member'}`);
            onDone();
          },
          onError: (failure) => setError(errorMessage(failure)),
        });
      }}
    >
      <FormError message={error} />
      <label className="field-label" htmlFor={id}>
        Request a review from
      </label>
      {candidates.length === 0 ? (
        <p className="panel-card-text">No other member who can review is left to ask.</p>
      ) : (
        <select
          id={id}
          className="input select"
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
          autoFocus
        >
          <option value="">Choose a member…</option>
          {candidates.map((member) => (
            <option key={member.user.id} value={member.user.id}>
              {member.user.displayName}
              {member.user.email ? ` (${member.user.email})` : ''}
            </option>
          ))}
        </select>
      )}
      <div className="form-actions">
        <Button size="sm" onClick={onDone}>
          Cancel
        </Button>
        {candidates.length > 0 && (
          <Button size="sm" type="submit" variant="primary" loading={request.isPending}>
            Request review
          </Button>
        )}
      </div>
    </form>
  );
}

// ---------- Reviews ----------

const REVIEW_LABELS: Record<Review['status'], string> = {
  approved: 'Approved',
  'changes-requested': 'Changes requested',
};

function Reviews({ changeRequest, currentUserId }: Omit<PanelProps, 'organizationId'>) {
  const reviews = useReviews(changeRequest.space, changeRequest.number);
  return (
    <section className="panel-card" aria-labelledby="reviews-title">
      <h3 id="reviews-title" className="panel-card-title">
        Reviews
      </h3>
      {reviews.isPending ? (
        <Spinner />
      ) : reviews.isError ? (
        <p className="field-error">{errorMessage(reviews.error)}</p>
      ) : reviews.data.length === 0 ? (
        <p className="panel-card-text">No reviews yet.</p>
      ) : (
        <ul className="review-list" aria-label="Reviews">
          {reviews.data.map((review) => (
            <li key={review.id} className="review">
              <div className="review-head">
                <span className="avatar" aria-hidden="true">
                  {initial(review.reviewer.displayName)}
                </span>
                <span className="person-name">{review.reviewer.displayName}</span>
                <span className={`badge review-${review.status}`}>{REVIEW_LABELS[review.status]}</span>
              </div>
              <p className="review-meta">
                <RelativeTime value={review.createdAt} />
                {review.outdated && ' · the change request changed since'}
              </p>
              {review.body && (
                <Markdown className="review-comment" headingOffset={2}>
                  {review.body.markdown}
                </Markdown>
              )}
            </li>
          ))}
        </ul>
      )}
      {/* The server says review: false to the author; say why rather than show nothing. */}
      {changeRequest.createdBy.id === currentUserId && changeRequest.status !== 'merged' ? (
        <p className="panel-card-text">You started this change request: its reviews come from others.</p>
      ) : (
        changeRequest.permissions.review && <ReviewForm changeRequest={changeRequest} />
      )}
    </section>
  );
}

/** A comment is optional: empty means none, else the contract's rule for a review comment applies. */
const reviewFormSchema = z.object({
  comment: z.union([z.literal(''), submitReviewBodySchema.shape.comment.unwrap().shape.markdown]),
});

function ReviewForm({ changeRequest }: { changeRequest: ChangeRequest }) {
  const form = useZodForm(reviewFormSchema, { defaultValues: { comment: '' } });
  const submit = useSubmitReview(changeRequest.space, changeRequest.number);
  const toast = useToast();
  const [status, setStatus] = useState<Review['status']>('approved');
  const send = (next: Review['status']) =>
    form.handleSubmit(async ({ comment }) => {
      setStatus(next);
      try {
        await submit.mutateAsync({ status: next, ...(comment ? { comment: { markdown: comment } } : {}) });
        form.reset({ comment: '' });
        toast.show(next === 'approved' ? 'You approved the change request' : 'You requested changes');
      } catch (error) {
        showServerError(form, error, ['comment']);
      }
    });
  const pending = form.formState.isSubmitting;
  return (
    <form
      className="form review-form"
      onSubmit={(event) => void send('approved')(event)}
      noValidate
      aria-label="Your review"
    >
      <FormError message={form.formState.errors.root?.server?.message} />
      <TextareaField
        control={form.control}
        name="comment"
        label="Review comment"
        hint="Optional, in markdown."
        max={REVIEW_COMMENT_MAX}
        rows={3}
      />
      <div className="form-actions">
        <Button
          loading={pending && status === 'changes-requested'}
          disabled={pending}
          onClick={() => void send('changes-requested')()}
        >
          Request changes
        </Button>
        <Button type="submit" variant="primary" loading={pending && status === 'approved'} disabled={pending}>
          Approve
        </Button>
      </div>
    </form>
  );
}

/** The latest review of each reviewer who answered a request and is not asked again (oldest reviews come first). */
function answeredRequests(reviews: Review[], stillRequested: ReadonlySet<string>): Review[] {
  const latest = new Map<string, Review>();
  const asked = new Set<string>();
  for (const review of reviews) {
    latest.set(review.reviewer.id, review);
    if (review.requestedBy) asked.add(review.reviewer.id);
  }
  return [...latest.values()].filter((r) => asked.has(r.reviewer.id) && !stillRequested.has(r.reviewer.id));
}

function initial(name: string): string {
  return (name.trim()[0] ?? '?').toUpperCase();
}
