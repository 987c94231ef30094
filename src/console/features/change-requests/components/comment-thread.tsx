import { useState } from 'react';
import type { ReactNode } from 'react';
import type { Comment, CommentReply } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
  useMenuDialogs,
} from '../../../components/ui/dropdown-menu';
import {
  CheckIcon,
  CommentIcon,
  EditIcon,
  MoreIcon,
  RefreshIcon,
  SmileIcon,
  TrashIcon,
} from '../../../components/ui/icons';
import { Markdown } from '../../../components/ui/markdown';
import { Spinner } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { fullTime } from '../../../lib/time';
import { useDeleteComment } from '../api/delete-comment';
import { useDeleteCommentReply } from '../api/delete-comment-reply';
import { useCommentReplies } from '../api/get-comment-replies';
import { useUpdateComment } from '../api/update-comment';
import { useUpdateCommentReply } from '../api/update-comment-reply';
import { EditPostForm, ReplyForm } from '../forms/comment-forms';
import { REACTION_PALETTE, isOutdated, reactedBy, reactionChange } from '../utils/comments';
import type { ThreadsOwner } from '../utils/paths';
import { plural } from '../utils/labels';
import '../change-requests.css';

/** The change request (or space) the threads belong to, and who reads them (whose reactions are theirs). */
export interface CommentScope {
  /** The space's organization: whose members and teams the comment forms suggest to mention. */
  organizationId: string;
  spaceId: string;
  number: ThreadsOwner;
  currentUserId: string;
}

/** The threads of a change request (its number known). */
export type ChangeRequestCommentScope = CommentScope & { number: number };

type Reactions = Comment['reactions'];
type ReactionsChange = { addedReactions: string[] } | { removedReactions: string[] };

function markdownOf(post: Comment | CommentReply): string {
  return 'markdown' in post.body ? post.body.markdown : '';
}

function initial(name: string): string {
  return (name.trim()[0] ?? '?').toUpperCase();
}

/**
 * One thread: the comment, what it is about when asked (`showTarget`, in the list of all threads) or when its
 * anchor is gone, its reactions, and its replies on demand (polled while shown).
 */
export function ThreadCard({
  comment,
  scope,
  showTarget = false,
}: {
  comment: Comment;
  scope: CommentScope;
  showTarget?: boolean;
}) {
  const { spaceId, number } = scope;
  const [repliesShown, setRepliesShown] = useState(false);
  const [focusReply, setFocusReply] = useState(false);
  const edit = useUpdateComment(spaceId, number);
  const resolve = useUpdateComment(spaceId, number);
  const react = useUpdateComment(spaceId, number);
  const remove = useDeleteComment(spaceId, number);
  const toast = useToast();
  const author = comment.postedBy.displayName;
  const resolved = comment.status === 'resolved';
  const setResolved = (next: boolean) =>
    resolve.mutate(
      { commentId: comment.id, body: { resolved: next } },
      {
        onSuccess: () => toast.show(next ? 'Thread resolved' : 'Thread reopened'),
        onError: (error) => toast.show(errorMessage(error), 'error'),
      },
    );
  const toggleReplies = (withForm: boolean) => {
    setFocusReply(withForm && !repliesShown);
    setRepliesShown(!repliesShown);
  };
  return (
    <article className={`thread${resolved ? ' thread-resolved' : ''}`} aria-label={`Comment by ${author}`}>
      {(showTarget || isOutdated(comment)) && <ThreadTarget comment={comment} showPage={showTarget} />}
      <Post
        post={comment}
        kind="comment"
        scope={scope}
        canReact={comment.permissions.reply}
        reacting={react.isPending}
        onReact={(change) =>
          react.mutate(
            { commentId: comment.id, body: change },
            { onError: (error) => toast.show(errorMessage(error), 'error') },
          )
        }
        onEdit={(markdown) => edit.mutateAsync({ commentId: comment.id, body: { body: { markdown } } })}
        onDelete={async () => {
          await remove.mutateAsync(comment.id);
          toast.show('Comment deleted');
        }}
        deleteText={
          comment.replies > 0
            ? `The comment and its ${plural(comment.replies, 'reply', 'replies')} will be deleted for everyone.`
            : 'The comment will be deleted for everyone.'
        }
        badges={
          resolved && (
            <span
              className="badge badge-resolved"
              title={comment.resolvedAt ? `Resolved ${fullTime(comment.resolvedAt)}` : undefined}
            >
              Resolved{comment.resolvedBy ? ` by ${comment.resolvedBy.displayName}` : ''}
            </span>
          )
        }
        actions={
          comment.permissions.resolve && (
            <Button size="sm" variant="ghost" loading={resolve.isPending} onClick={() => setResolved(!resolved)}>
              {resolved ? (
                <>
                  <RefreshIcon /> Reopen
                </>
              ) : (
                <>
                  <CheckIcon /> Resolve
                </>
              )}
            </Button>
          )
        }
      />
      <div className="thread-footer">
        {comment.replies > 0 ? (
          <button
            type="button"
            className="link-button"
            aria-expanded={repliesShown}
            onClick={() => toggleReplies(false)}
          >
            <CommentIcon />
            {repliesShown ? 'Hide replies' : plural(comment.replies, 'reply', 'replies')}
            {!repliesShown && comment.repliers.length > 0 && (
              <span className="thread-repliers">
                {' '}
                from {comment.repliers.map((user) => user.displayName).join(', ')}
              </span>
            )}
          </button>
        ) : (
          comment.permissions.reply && (
            <button
              type="button"
              className="link-button"
              aria-expanded={repliesShown}
              onClick={() => toggleReplies(true)}
            >
              <CommentIcon /> {repliesShown ? 'Cancel reply' : 'Reply'}
            </button>
          )
        )}
      </div>
      {repliesShown && <Replies comment={comment} scope={scope} focusForm={focusReply} />}
    </article>
  );
}

/** What a thread is about: the page and the block's text as it was; "Outdated" when either is gone. */
function ThreadTarget({ comment, showPage }: { comment: Comment; showPage: boolean }) {
  const { page, node } = comment.target;
  const outdated = isOutdated(comment);
  return (
    <div className="thread-target">
      {outdated && (
        <span
          className="badge badge-outdated"
          title={
            node
              ? 'The block this comment is about is no longer in the change request'
              : 'The page this comment is about is no longer in the change request'
          }
        >
          Outdated
        </span>
      )}
      {showPage && (
        <span className="thread-target-page">
          {page ? (
            <>
              On {page.emoji ? `${page.emoji} ` : ''}
              <strong>{page.title || 'Untitled'}</strong>
            </>
          ) : (
            'On the change request'
          )}
        </span>
      )}
      {node?.preview && (showPage || outdated) && <q className="thread-target-preview">{node.preview}</q>}
    </div>
  );
}

function Replies({ comment, scope, focusForm }: { comment: Comment; scope: CommentScope; focusForm: boolean }) {
  const replies = useCommentReplies(scope.spaceId, scope.number, comment.id, true);
  const author = comment.postedBy.displayName;
  return (
    <div className="thread-replies">
      {replies.isPending ? (
        comment.replies > 0 && (
          <p className="thread-note" role="status">
            <Spinner /> Loading the replies…
          </p>
        )
      ) : replies.isError && !replies.data ? (
        <p className="field-error" role="alert">
          The replies could not be loaded: {errorMessage(replies.error)}{' '}
          <button type="button" className="link-button" onClick={() => void replies.refetch()}>
            Try again
          </button>
        </p>
      ) : (
        replies.data.length > 0 && (
          <ul className="reply-list" aria-label={`Replies to ${author}`}>
            {replies.data.map((reply) => (
              <li key={reply.id}>
                <ReplyItem reply={reply} commentId={comment.id} scope={scope} />
              </li>
            ))}
          </ul>
        )
      )}
      {replies.isError && replies.data && (
        <p className="thread-note" role="status">
          New replies could not be fetched ({errorMessage(replies.error)}); trying again.
        </p>
      )}
      {comment.permissions.reply && (
        <ReplyForm
          organizationId={scope.organizationId}
          spaceId={scope.spaceId}
          number={scope.number}
          commentId={comment.id}
          name={`Reply to ${author}`}
          autoFocus={focusForm}
        />
      )}
    </div>
  );
}

function ReplyItem({ reply, commentId, scope }: { reply: CommentReply; commentId: string; scope: CommentScope }) {
  const edit = useUpdateCommentReply(scope.spaceId, scope.number, commentId);
  const react = useUpdateCommentReply(scope.spaceId, scope.number, commentId);
  const remove = useDeleteCommentReply(scope.spaceId, scope.number, commentId);
  const toast = useToast();
  return (
    <article className="reply" aria-label={`Reply by ${reply.postedBy.displayName}`}>
      <Post
        post={reply}
        kind="reply"
        scope={scope}
        canReact={reply.permissions.reply}
        reacting={react.isPending}
        onReact={(change) =>
          react.mutate(
            { replyId: reply.id, body: change },
            { onError: (error) => toast.show(errorMessage(error), 'error') },
          )
        }
        onEdit={(markdown) => edit.mutateAsync({ replyId: reply.id, body: { body: { markdown } } })}
        onDelete={async () => {
          await remove.mutateAsync(reply.id);
          toast.show('Reply deleted');
        }}
        deleteText="The reply will be deleted for everyone."
      />
    </article>
  );
}

/** What a comment and a reply share: author and time, the body (or its edit form), reactions, edit and delete. */
function Post({
  post,
  kind,
  scope,
  canReact,
  reacting,
  onReact,
  onEdit,
  onDelete,
  deleteText,
  badges,
  actions,
}: {
  post: Comment | CommentReply;
  kind: 'comment' | 'reply';
  scope: CommentScope;
  canReact: boolean;
  reacting: boolean;
  onReact: (change: ReactionsChange) => void;
  onEdit: (markdown: string) => Promise<unknown>;
  onDelete: () => Promise<unknown>;
  deleteText: string;
  badges?: ReactNode;
  actions?: ReactNode;
}) {
  const { trigger, openDialog, onCloseAutoFocus, dialog } = useMenuDialogs<'edit' | 'delete'>();
  const editing = dialog('edit');
  const author = post.postedBy.displayName;
  const markdown = markdownOf(post);
  const { edit, delete: canDelete } = post.permissions;
  return (
    <div className="post">
      <header className="post-head">
        <span className="avatar" aria-hidden="true">
          {initial(author)}
        </span>
        <span className="post-author">{author}</span>
        <span className="post-meta">
          <RelativeTime value={post.postedAt} />
          {post.editedAt && <span title={`Edited ${fullTime(post.editedAt)}`}> · edited</span>}
        </span>
        {badges}
        <span className="post-actions">
          {actions}
          {(edit || canDelete) && (
            <DropdownMenu>
              <DropdownMenuTrigger
                ref={trigger}
                className="btn btn-ghost btn-sm btn-icon"
                aria-label={`Actions for the ${kind} by ${author}`}
              >
                <MoreIcon />
              </DropdownMenuTrigger>
              <DropdownMenuContent onCloseAutoFocus={onCloseAutoFocus}>
                {edit && (
                  <DropdownMenuItem icon={<EditIcon />} onSelect={() => openDialog('edit')}>
                    Edit
                  </DropdownMenuItem>
                )}
                {canDelete && (
                  <DropdownMenuItem danger icon={<TrashIcon />} onSelect={() => openDialog('delete')}>
                    Delete…
                  </DropdownMenuItem>
                )}
              </DropdownMenuContent>
            </DropdownMenu>
          )}
        </span>
      </header>
      {editing.open ? (
        <EditPostForm
          organizationId={scope.organizationId}
          name={`Edit the ${kind}`}
          markdown={markdown}
          onCancel={() => {
            editing.onOpenChange(false);
            trigger.current?.focus();
          }}
          onSave={async (next) => {
            await onEdit(next);
            editing.onOpenChange(false);
            trigger.current?.focus();
          }}
        />
      ) : (
        <Markdown className="post-body" headingOffset={2} mentions>
          {markdown}
        </Markdown>
      )}
      <ReactionBar
        reactions={post.reactions}
        currentUserId={scope.currentUserId}
        canReact={canReact}
        pending={reacting}
        onToggle={(emoji) => onReact(reactionChange(post.reactions, emoji, scope.currentUserId))}
        kind={kind}
        author={author}
      />
      <ConfirmDialog
        {...dialog('delete')}
        title={`Delete this ${kind}?`}
        confirmLabel={`Delete ${kind}`}
        action={onDelete}
      >
        <p>{deleteText}</p>
      </ConfirmDialog>
    </div>
  );
}

/** Each emoji with its count (pressed when the reader is among those who reacted), and the palette to add one. */
function ReactionBar({
  reactions,
  currentUserId,
  canReact,
  pending,
  onToggle,
  kind,
  author,
}: {
  reactions: Reactions;
  currentUserId: string;
  canReact: boolean;
  pending: boolean;
  onToggle: (emoji: string) => void;
  kind: 'comment' | 'reply';
  author: string;
}) {
  if (!canReact && reactions.length === 0) return null;
  const toggle = (emoji: string) => {
    if (!pending) onToggle(emoji);
  };
  return (
    <div className="reactions" role="group" aria-label={`Reactions to the ${kind} by ${author}`}>
      {reactions.map((reaction) => {
        const mine = reactedBy(reaction, currentUserId);
        const names = reaction.users.map(({ user }) => (user.id === currentUserId ? 'you' : user.displayName));
        return (
          <button
            key={reaction.emoji}
            type="button"
            className="reaction"
            aria-pressed={mine}
            aria-disabled={!canReact || pending || undefined}
            title={`${names.join(', ')}${canReact ? (mine ? ' (click to remove yours)' : ' (click to add yours)') : ''}`}
            onClick={() => canReact && toggle(reaction.emoji)}
          >
            <span className="reaction-emoji">{reaction.emoji}</span>{' '}
            <span className="reaction-count">{reaction.count}</span>
          </button>
        );
      })}
      {canReact && (
        <DropdownMenu>
          <DropdownMenuTrigger className="btn btn-ghost btn-sm btn-icon reaction-add" aria-label="Add a reaction">
            <SmileIcon />
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start">
            {REACTION_PALETTE.map(({ emoji, label }) => (
              <DropdownMenuCheckboxItem
                key={emoji}
                checked={reactions.some((reaction) => reaction.emoji === emoji && reactedBy(reaction, currentUserId))}
                onCheckedChange={() => toggle(emoji)}
              >
                {emoji} {label}
              </DropdownMenuCheckboxItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      )}
    </div>
  );
}
