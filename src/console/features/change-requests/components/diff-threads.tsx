import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import type { Comment } from '../../../../shared/contract';
import { IconButton } from '../../../components/ui/button';
import { CommentIcon } from '../../../components/ui/icons';
import { ErrorState, Loading } from '../../../components/ui/states';
import { usePageDiff } from '../api/get-page-diff';
import { NewThreadForm } from '../forms/comment-forms';
import { blockExcerpt, placeThreads } from '../utils/comments';
import { plural } from '../utils/labels';
import { ThreadCard } from './comment-thread';
import type { ChangeRequestCommentScope, CommentScope } from './comment-thread';
import { PageDiffView } from './page-diff';
import { useChangeRequest } from '../api/get-change-request';
import { revisionFilesUrl } from '../../../components/ui/markdown-files';
import type { DiffAnnotations, DiffBlock, DiffView } from './page-diff';
import '../change-requests.css';

/** Where a new thread is being written on a page: one of its blocks, or (`node: null`) the page itself. */
export type Composer = { node: string | null } | null;

/** A block named by its text, e.g. `“Step one”`, for labels. */
function blockName(block: DiffBlock): string {
  const excerpt = blockExcerpt(block.kind === 'modified' ? block.after : block.markdown);
  return excerpt ? `“${excerpt}”` : 'this block';
}

/**
 * The diff of one page with its threads: each beside the block it anchors to, and the page's own threads (and
 * those whose block is gone) above the blocks. Each block of the change request's content has a button that
 * starts a thread on it; removed blocks are not in that content, so they have none.
 */
export function DiffWithThreads({
  scope,
  pageId,
  pageTitle,
  view,
  threads,
  canComment,
  composer,
  onComposerChange,
  onPageComposerClosed,
}: {
  scope: ChangeRequestCommentScope;
  pageId: string;
  pageTitle: string;
  view: DiffView;
  threads: Comment[];
  canComment: boolean;
  composer: Composer;
  onComposerChange: (composer: Composer) => void;
  /** The page's own form closed: focus goes back to what opened it. */
  onPageComposerClosed: () => void;
}) {
  const { spaceId, number } = scope;
  const diff = usePageDiff(spaceId, number, pageId);
  const changeRequest = useChangeRequest(spaceId, number);
  const baseId = useId();
  if (diff.isPending) return <Loading label="Loading the changes…" />;
  if (diff.isError) return <ErrorState error={diff.error} onRetry={() => void diff.refetch()} />;

  const placed = placeThreads(threads, diff.data.blocks);
  const buttonId = (blockId: string) => `${baseId}-comment-${blockId}`;
  const closeBlockComposer = (blockId: string) => {
    onComposerChange(null);
    // The form is gone on the next render; the button that opened it takes focus back.
    requestAnimationFrame(() => document.getElementById(buttonId(blockId))?.focus());
  };
  const closePageComposer = () => {
    onComposerChange(null);
    onPageComposerClosed();
  };
  const newThread = (node: string | null, name: string, onClose: () => void) => (
    <NewThreadForm
      organizationId={scope.organizationId}
      spaceId={spaceId}
      number={number}
      target={node === null ? { page: pageId } : { page: pageId, node }}
      name={name}
      autoFocus
      onPosted={onClose}
      onCancel={onClose}
    />
  );

  const annotations: DiffAnnotations = {
    pinned: new Set(placed.byBlock.keys()),
    action: (block) =>
      canComment && block.kind !== 'removed' ? (
        <IconButton
          id={buttonId(block.id)}
          label={`Comment on ${blockName(block)}`}
          aria-expanded={composer?.node === block.id}
          onClick={() => onComposerChange(composer?.node === block.id ? null : { node: block.id })}
        >
          <CommentIcon />
        </IconButton>
      ) : null,
    below: (block) => {
      const blockThreads = placed.byBlock.get(block.id) ?? [];
      const composing = canComment && composer?.node === block.id;
      if (blockThreads.length === 0 && !composing) return null;
      const name = blockName(block);
      return (
        <ThreadGroup
          label={`Threads on ${name}`}
          threads={blockThreads}
          scope={scope}
          composer={composing && newThread(block.id, `New comment on ${name}`, () => closeBlockComposer(block.id))}
        />
      );
    },
  };

  const composingOnPage = canComment && composer !== null && composer.node === null;
  return (
    <>
      {(placed.page.length > 0 || composingOnPage) && (
        <ThreadGroup
          label={`Threads on the page ${pageTitle}`}
          threads={placed.page}
          scope={scope}
          composer={composingOnPage && newThread(null, `New comment on the page ${pageTitle}`, closePageComposer)}
        />
      )}
      <PageDiffView
        diff={diff.data}
        view={view}
        annotations={annotations}
        files={{
          before: revisionFilesUrl(spaceId, changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial),
          after: revisionFilesUrl(spaceId, changeRequest.revision),
        }}
      />
    </>
  );
}

/** Threads in one place: the open ones, the resolved ones on demand, and the form of a new one when it is open. */
export function ThreadGroup({
  label,
  threads,
  scope,
  composer,
}: {
  label: string;
  threads: Comment[];
  scope: CommentScope;
  composer?: ReactNode;
}) {
  const [showResolved, setShowResolved] = useState(false);
  const open = threads.filter((thread) => thread.status === 'open');
  const resolved = threads.filter((thread) => thread.status === 'resolved');
  return (
    <section className="thread-group" aria-label={label}>
      {open.map((thread) => (
        <ThreadCard key={thread.id} comment={thread} scope={scope} />
      ))}
      {resolved.length > 0 && (
        <button
          type="button"
          className="link-button thread-group-toggle"
          aria-expanded={showResolved}
          onClick={() => setShowResolved(!showResolved)}
        >
          {showResolved ? 'Hide' : 'Show'} {plural(resolved.length, 'resolved thread')}
        </button>
      )}
      {showResolved && resolved.map((thread) => <ThreadCard key={thread.id} comment={thread} scope={scope} />)}
      {composer}
    </section>
  );
}
