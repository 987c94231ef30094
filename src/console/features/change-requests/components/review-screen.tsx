import { Link, useNavigate } from '@tanstack/react-router';
import { useId, useMemo, useRef, useState } from 'react';
import type { ChangeRequest, Comment, SemanticChange } from '../../../../shared/contract';
import { Button, IconButton } from '../../../components/ui/button';
import { ChevronIcon, CommentIcon, RefreshIcon } from '../../../components/ui/icons';
import { EmptyState, FormError, Loading } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useChangeRequest } from '../api/get-change-request';
import { useChanges } from '../api/get-changes';
import { useComments } from '../api/get-comments';
import { useUpdateFromSpace } from '../api/update-from-space';
import { threadsByPage } from '../utils/comments';
import { plural } from '../utils/labels';
import type { ChangeRequestCommentScope } from './comment-thread';
import { CommentsSection } from './comments-section';
import { DiffWithThreads } from './diff-threads';
import type { Composer } from './diff-threads';
import { ExportPdfButton } from './export-pdf-button';
import { MergePanel } from './merge-panel';
import { PageDiffView, type DiffView } from './page-diff';
import { useReusableDiff } from '../api/get-page-diff';
import { NARROW, useMediaQuery } from '../../../lib/use-media-query';
import { ReviewsPanel } from './reviews-panel';
import '../change-requests.css';

interface Props {
  organizationId: string;
  spaceId: string;
  number: number;
  spaceLocked: boolean;
  currentUserId: string;
  view: DiffView;
  onViewChange: (view: DiffView) => void;
}

/** What a change request changes, page by page, beside what it takes to merge it: reviews, conflicts, the merge. */
export function ReviewScreen({
  organizationId,
  spaceId,
  number,
  spaceLocked,
  currentUserId,
  view: requestedView,
  onViewChange,
}: Props) {
  // Side by side does not fit a phone: narrow screens show the inline diff whatever the address asks for.
  const narrow = useMediaQuery(NARROW);
  const view = narrow ? 'inline' : requestedView;
  const changeRequest = useChangeRequest(spaceId, number);
  const changes = useChanges(spaceId, number);
  const comments = useComments(spaceId, number);
  const byPage = useMemo(() => threadsByPage(comments.data ?? []), [comments.data]);
  const scope = useMemo(
    () => ({ organizationId, spaceId, number, currentUserId }),
    [organizationId, spaceId, number, currentUserId],
  );
  return (
    <div className="review-layout">
      <div className="review-main">
        <StatusNotices organizationId={organizationId} changeRequest={changeRequest} spaceLocked={spaceLocked} />
        <section aria-labelledby="changes-title" className="section">
          <div className="section-header">
            <h3 id="changes-title" className="section-title">
              Changes <span className="section-count">{changes.length}</span>
            </h3>
            {changes.length > 0 && !narrow && <ViewSwitch view={view} onChange={onViewChange} />}
          </div>
          {changes.length === 0 ? (
            <EmptyState
              title="No changes yet"
              action={
                changeRequest.permissions.edit && (
                  <Link
                    to="/o/$organizationId/spaces/$spaceId/change-requests/$number/pages"
                    params={{ organizationId, spaceId, number }}
                    className="btn btn-primary"
                  >
                    Edit pages
                  </Link>
                )
              }
            >
              This change request changes nothing in the space so far.
            </EmptyState>
          ) : (
            <ul className="changes-list" aria-label="Changed pages and files">
              {changes.map((change, index) => (
                <ChangeItem
                  key={changeKey(change)}
                  defaultOpen={index < OPEN_DIFFS}
                  organizationId={organizationId}
                  changeRequest={changeRequest}
                  change={change}
                  view={view}
                  scope={scope}
                  threads={'page' in change ? (byPage.get(change.page.id) ?? NO_THREADS) : NO_THREADS}
                />
              ))}
            </ul>
          )}
        </section>
        <CommentsSection changeRequest={changeRequest} scope={scope} comments={comments} />
      </div>
      <aside className="review-aside" aria-label="Merge and reviews">
        <MergePanel
          organizationId={organizationId}
          changeRequest={changeRequest}
          spaceLocked={spaceLocked}
          hasChanges={changes.length > 0}
        />
        <ReviewsPanel organizationId={organizationId} changeRequest={changeRequest} currentUserId={currentUserId} />
      </aside>
    </div>
  );
}

/** Diffs shown at once; the others load when opened. */
const OPEN_DIFFS = 10;

const NO_THREADS: Comment[] = [];

function changeKey(change: SemanticChange): string {
  if ('page' in change) return `${change.type}:${change.page.id}`;
  return 'file' in change ? `${change.type}:${change.file.id}` : `${change.type}:${change.reusableContent.id}`;
}

function ViewSwitch({ view, onChange }: { view: DiffView; onChange: (view: DiffView) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Diff view">
      <button type="button" aria-pressed={view === 'split'} onClick={() => onChange('split')}>
        Side by side
      </button>
      <button type="button" aria-pressed={view === 'inline'} onClick={() => onChange('inline')}>
        Inline
      </button>
    </div>
  );
}

/** Outdated, conflicting: what stands between the change request and the space, and the way forward. */
function StatusNotices({
  organizationId,
  changeRequest,
  spaceLocked,
}: {
  organizationId: string;
  changeRequest: ChangeRequest;
  spaceLocked: boolean;
}) {
  const { space: spaceId, number } = changeRequest;
  const update = useUpdateFromSpace(spaceId, number);
  const navigate = useNavigate();
  const toast = useToast();
  if (changeRequest.status === 'merged') return null;
  if (changeRequest.conflicts > 0) {
    return (
      <div className="notice notice-danger" role="status">
        <div>
          <p className="notice-title">
            {plural(changeRequest.conflicts, 'conflict')} with the space wait for a resolution
          </p>
          <p>The space changed the same content as this change request. Choose what to keep before merging.</p>
          <p>
            <Link
              to="/o/$organizationId/spaces/$spaceId/change-requests/$number/conflicts"
              params={{ organizationId, spaceId, number }}
              className="btn btn-primary btn-sm"
            >
              Resolve conflicts
            </Link>
          </p>
        </div>
      </div>
    );
  }
  if (!changeRequest.outdated) return null;
  const canUpdate = changeRequest.permissions.edit && !spaceLocked;
  return (
    <div className="notice notice-warning" role="status">
      <div>
        <p className="notice-title">The space changed since this change request started</p>
        <p>
          Update it from the space to review it against the current content. Changes to the same text show as conflicts
          to resolve.
        </p>
        {canUpdate && (
          <p>
            <Button
              size="sm"
              loading={update.isPending}
              onClick={() =>
                update.mutate(undefined, {
                  onSuccess: (result) => {
                    if (result.result === 'conflicts') {
                      toast.show('Some changes conflict with the space: choose what to keep', 'info');
                      void navigate({
                        to: '/o/$organizationId/spaces/$spaceId/change-requests/$number/conflicts',
                        params: { organizationId, spaceId, number },
                      });
                    } else toast.show('Updated from the space');
                  },
                  onError: (error) => toast.show(errorMessage(error), 'error'),
                })
              }
            >
              <RefreshIcon /> Update from space
            </Button>
          </p>
        )}
      </div>
    </div>
  );
}

const CHANGE_LABELS: Record<SemanticChange['type'], string> = {
  page_created: 'Added',
  page_edited: 'Edited',
  page_deleted: 'Deleted',
  page_moved: 'Moved',
  file_created: 'File added',
  file_edited: 'File changed',
  file_deleted: 'File deleted',
  reusable_content_created: 'Reusable content added',
  reusable_content_edited: 'Reusable content edited',
  reusable_content_deleted: 'Reusable content deleted',
};

const ATTRIBUTE_LABELS: Record<string, string> = {
  document: 'content',
  title: 'title',
  slug: 'slug',
  emoji: 'emoji',
  description: 'description',
  href: 'link',
  layout: 'layout',
  cover: 'cover',
};

function ChangeItem({
  organizationId,
  changeRequest,
  change,
  view,
  defaultOpen,
  scope,
  threads,
}: {
  organizationId: string;
  changeRequest: ChangeRequest;
  change: SemanticChange;
  view: DiffView;
  defaultOpen: boolean;
  scope: ChangeRequestCommentScope;
  /** The threads on this change's page. */
  threads: Comment[];
}) {
  const [open, setOpen] = useState(defaultOpen);
  const [composer, setComposer] = useState<Composer>(null);
  const pageCommentButton = useRef<HTMLButtonElement>(null);
  const bodyId = useId();
  const tone = change.type.split('_').at(-1);
  if ('reusableContent' in change) {
    return <ReusableChangeItem changeRequest={changeRequest} change={change} view={view} defaultOpen={defaultOpen} />;
  }
  if (!('page' in change)) {
    return (
      <li className="change-item">
        <div className="change-header">
          <span className={`badge change-${tone}`}>{CHANGE_LABELS[change.type]}</span>
          <span className="change-title">{change.file.name}</span>
        </div>
      </li>
    );
  }
  const { page } = change;
  const hasDiff = change.type !== 'page_moved' && page.type === 'document';
  const title = page.title || 'Untitled';
  const openThreads = threads.filter((thread) => thread.status === 'open').length;
  // Threads anchor to the change request's content: a deleted page is not in it any more.
  const canComment = changeRequest.permissions.comment && hasDiff && change.type !== 'page_deleted';
  return (
    <li className="change-item">
      <div className="change-header">
        {hasDiff ? (
          <ChangeToggle open={open} onToggle={() => setOpen(!open)} controls={bodyId} title={title} />
        ) : (
          <span className="change-title change-title-static">{title}</span>
        )}
        <span className={`badge change-${tone}`}>{CHANGE_LABELS[change.type]}</span>
        {change.type === 'page_edited' && Object.keys(change.attributes).length > 0 && (
          <span className="change-attributes">
            {Object.keys(change.attributes)
              .map((attribute) => ATTRIBUTE_LABELS[attribute] ?? attribute)
              .join(', ')}
          </span>
        )}
        {openThreads > 0 && (
          <span className="badge badge-comments" title={`${plural(openThreads, 'open thread')} on this page`}>
            <CommentIcon aria-hidden="true" /> {openThreads}
            <span className="visually-hidden"> {openThreads === 1 ? 'open thread' : 'open threads'}</span>
          </span>
        )}
        {change.type === 'page_moved' && (
          <span className="change-attributes">
            from {change.parent.before ? `“${change.parent.before.title}”` : 'the top level'} to{' '}
            {change.parent.after ? `“${change.parent.after.title}”` : 'the top level'}
          </span>
        )}
        {change.type !== 'page_deleted' && page.type === 'document' && (
          <span className="change-actions">
            {canComment && (
              <IconButton
                ref={pageCommentButton}
                label={`Comment on the page ${title}`}
                aria-expanded={composer !== null && composer.node === null}
                onClick={() => {
                  setOpen(true);
                  setComposer(composer !== null && composer.node === null ? null : { node: null });
                }}
              >
                <CommentIcon />
              </IconButton>
            )}
            <ExportPdfButton changeRequest={changeRequest} page={page} />
            <Link
              to="/o/$organizationId/spaces/$spaceId/change-requests/$number/pages/$pageId"
              params={{ organizationId, spaceId: changeRequest.space, number: changeRequest.number, pageId: page.id }}
              className="btn btn-ghost btn-sm"
              aria-label={`Open ${title} in the editor`}
            >
              Open
            </Link>
          </span>
        )}
      </div>
      {hasDiff && open && (
        <div id={bodyId} className="change-body">
          <DiffWithThreads
            scope={scope}
            pageId={page.id}
            pageTitle={title}
            view={view}
            threads={threads}
            canComment={canComment}
            composer={composer}
            onComposerChange={setComposer}
            onPageComposerClosed={() => requestAnimationFrame(() => pageCommentButton.current?.focus())}
          />
        </div>
      )}
    </li>
  );
}

/** A reusable content the change request adds, edits or deletes: its diff, as a page's, opened on demand. */
function ReusableChangeItem({
  changeRequest,
  change,
  view,
  defaultOpen,
}: {
  changeRequest: ChangeRequest;
  change: Extract<SemanticChange, { reusableContent: unknown }>;
  view: DiffView;
  defaultOpen: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const bodyId = useId();
  const diff = useReusableDiff(changeRequest.space, changeRequest.number, change.reusableContent.id, open);
  return (
    <li className="change-item">
      <div className="change-header">
        <ChangeToggle
          open={open}
          onToggle={() => setOpen(!open)}
          controls={bodyId}
          title={change.reusableContent.title || 'Untitled'}
        />
        <span className={`badge change-${change.type.split('_').at(-1)}`}>{CHANGE_LABELS[change.type]}</span>
      </div>
      {open && (
        <div id={bodyId} className="change-body">
          {diff.isPending ? (
            <Loading label="Loading the changes…" />
          ) : diff.isError ? (
            <FormError message={errorMessage(diff.error)} />
          ) : (
            <PageDiffView diff={diff.data} view={view} />
          )}
        </div>
      )}
    </li>
  );
}

/** The button that opens and closes one change's diff, named by what changed. */
function ChangeToggle({
  open,
  onToggle,
  controls,
  title,
}: {
  open: boolean;
  onToggle: () => void;
  controls: string;
  title: string;
}) {
  return (
    <button type="button" className="change-toggle" aria-expanded={open} aria-controls={controls} onClick={onToggle}>
      <ChevronIcon className={open ? 'rotate-90' : undefined} />
      <span className="change-title">{title}</span>
    </button>
  );
}
