import { useState } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ChangeRequest, Comment, CommentStatus } from '../../../../shared/contract';
import { CommentIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { errorMessage } from '../../../lib/api-client';
import { NewThreadForm } from '../forms/comment-forms';
import { countByStatus } from '../utils/comments';
import { ThreadCard } from './comment-thread';
import type { CommentScope } from './comment-thread';
import '../change-requests.css';

const FILTERS: Array<{ status: CommentStatus; label: string; empty: string }> = [
  { status: 'open', label: 'Open', empty: 'No open threads: every comment is resolved.' },
  { status: 'resolved', label: 'Resolved', empty: 'No resolved threads yet.' },
];

/**
 * Every thread of the change request, open or resolved, each saying what it is about (a page, a block's text,
 * the change request), with the form for a comment on the whole change request.
 */
export function CommentsSection({
  changeRequest,
  scope,
  comments,
}: {
  changeRequest: ChangeRequest;
  scope: CommentScope;
  comments: UseQueryResult<Comment[]>;
}) {
  const [status, setStatus] = useState<CommentStatus>('open');
  const counts = comments.data ? countByStatus(comments.data) : undefined;
  const shown = comments.data?.filter((comment) => comment.status === status) ?? [];
  const filter = FILTERS.find((f) => f.status === status)!;
  return (
    <section aria-labelledby="comments-title" className="section comments-section">
      <div className="section-header">
        <h3 id="comments-title" className="section-title">
          Comments
          {counts && (
            <span className="section-count">
              {counts.open} open · {counts.resolved} resolved
            </span>
          )}
        </h3>
        {counts && counts.open + counts.resolved > 0 && (
          <div className="segmented" role="group" aria-label="Show threads">
            {FILTERS.map((f) => (
              <button
                key={f.status}
                type="button"
                aria-pressed={status === f.status}
                onClick={() => setStatus(f.status)}
              >
                {f.label} <span className="segmented-count">{counts[f.status]}</span>
              </button>
            ))}
          </div>
        )}
      </div>
      {comments.isPending ? (
        <Loading label="Loading the comments…" />
      ) : comments.isError && !comments.data ? (
        <ErrorState
          error={comments.error}
          title="The comments could not be loaded"
          onRetry={() => void comments.refetch()}
        />
      ) : comments.data.length === 0 ? (
        <EmptyState icon={<CommentIcon width={24} height={24} />} title="No comments yet">
          {changeRequest.permissions.comment
            ? 'Comment on a block of the changes, on a page, or on the whole change request below.'
            : 'Comments of the members on this change request show here.'}
        </EmptyState>
      ) : shown.length === 0 ? (
        <p className="section-text">{filter.empty}</p>
      ) : (
        <ul className="thread-list" aria-label={`${filter.label} threads`}>
          {shown.map((comment) => (
            <li key={comment.id}>
              <ThreadCard comment={comment} scope={scope} showTarget />
            </li>
          ))}
        </ul>
      )}
      {comments.isError && comments.data && (
        <p className="thread-note" role="status">
          New comments could not be fetched ({errorMessage(comments.error)}); trying again.
        </p>
      )}
      {changeRequest.permissions.comment && (
        <NewThreadForm
          organizationId={scope.organizationId}
          spaceId={scope.spaceId}
          number={scope.number}
          target={{}}
          name="New comment on the change request"
        />
      )}
    </section>
  );
}
