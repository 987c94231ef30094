import { CommentIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { usePageComments } from '../api/get-comments';
import { NewThreadForm } from '../forms/comment-forms';
import { ThreadGroup } from './diff-threads';
import '../change-requests.css';

/**
 * The comments on a page of the space (not on a change request): its threads, open and resolved, and a form for a
 * new one. Whoever created the page, and whoever takes part, hear of new ones (README, "Notifications").
 */
export function PageComments({
  organizationId,
  spaceId,
  pageId,
  pageTitle,
  canComment,
  currentUserId,
}: {
  organizationId: string;
  spaceId: string;
  pageId: string;
  pageTitle: string;
  canComment: boolean;
  currentUserId: string;
}) {
  const comments = usePageComments(spaceId, pageId);
  const scope = { organizationId, spaceId, number: null, currentUserId };
  const title = pageTitle || 'Untitled';
  return (
    <section className="section page-comments" aria-labelledby="page-comments-title">
      <h3 id="page-comments-title" className="section-title">
        Comments
      </h3>
      {comments.isPending ? (
        <Loading label="Loading the comments…" />
      ) : comments.isError && !comments.data ? (
        <ErrorState
          error={comments.error}
          title="The comments could not be loaded"
          onRetry={() => void comments.refetch()}
        />
      ) : (
        <>
          {comments.data.length === 0 && !canComment && (
            <EmptyState icon={<CommentIcon width={24} height={24} />} title="No comments yet">
              Comments of the members on this page show here.
            </EmptyState>
          )}
          <ThreadGroup
            label={`Threads on the page ${title}`}
            threads={comments.data}
            scope={scope}
            composer={
              canComment && (
                <NewThreadForm
                  organizationId={organizationId}
                  spaceId={spaceId}
                  number={null}
                  target={{ page: pageId }}
                  name={`New comment on the page ${title}`}
                />
              )
            }
          />
        </>
      )}
    </section>
  );
}
