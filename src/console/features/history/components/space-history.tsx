import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { UseQueryResult } from '@tanstack/react-query';
import { useRef } from 'react';
import { Link } from '@tanstack/react-router';
import type { z } from 'zod';
import type { revisionChangesSchema, RevisionSummary, SemanticChange } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { LayersIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { fullTime, timeAgo } from '../../../lib/time';
import { useSeen } from '../../../lib/use-seen';
import { revisionChangesQueryOptions, spaceRevisionsQueryOptions } from '../api/get-revisions';
import '../history.css';

interface Props {
  organizationId: string;
  spaceId: string;
}

/** The space's history: its revisions newest first, what each changed, and a way to read the space as it was. */
export function SpaceHistory({ organizationId, spaceId }: Props) {
  const revisions = useInfiniteQuery(spaceRevisionsQueryOptions(spaceId));
  const items = revisions.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="history" aria-labelledby="history-title">
      <h2 id="history-title" className="section-title">
        History
      </h2>
      <p className="history-intro">
        Each merged change request makes a revision of the space. Open one to read the space as it was then.
      </p>
      {revisions.isPending ? (
        <Loading label="Loading the history…" />
      ) : revisions.isError ? (
        <ErrorState error={revisions.error} onRetry={() => void revisions.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState icon={<LayersIcon width={24} height={24} />} title="No revisions yet">
          The space has no history to show.
        </EmptyState>
      ) : (
        <>
          <ol className="history-list" aria-label="Revisions, newest first">
            {items.map((revision) => (
              <RevisionItem key={revision.id} organizationId={organizationId} spaceId={spaceId} revision={revision} />
            ))}
          </ol>
          {revisions.hasNextPage && (
            <div className="list-more">
              <Button onClick={() => void revisions.fetchNextPage()} loading={revisions.isFetchingNextPage}>
                Show older revisions
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function describe(revision: RevisionSummary): string {
  if (revision.changeRequest) {
    return `Merged #${revision.changeRequest.number} ${revision.changeRequest.subject || 'Untitled change request'}`;
  }
  if (revision.type === 'merge') return 'Merged a change request';
  return revision.parents.length ? 'Copied from another space' : 'Space created';
}

function RevisionItem({ organizationId, spaceId, revision }: Props & { revision: RevisionSummary }) {
  const title = describe(revision);
  const before = revision.parents[0];
  return (
    <li className="history-item" aria-label={title}>
      <div className="history-item-head">
        <h3 className="history-item-title">
          {revision.changeRequest ? (
            <Link
              to="/o/$organizationId/spaces/$spaceId/change-requests/$number"
              params={{ organizationId, spaceId, number: revision.changeRequest.number }}
            >
              {title}
            </Link>
          ) : (
            title
          )}
          {revision.current && <span className="badge">Current</span>}
        </h3>
        <p className="history-item-meta">
          {revision.createdBy ? revision.createdBy.displayName : 'A removed account'} ·{' '}
          <time dateTime={revision.createdAt} title={fullTime(revision.createdAt)}>
            {timeAgo(revision.createdAt)}
          </time>
        </p>
      </div>
      <RevisionChanges spaceId={spaceId} revisionId={revision.id} />
      <p className="history-item-actions">
        <Link
          to="/o/$organizationId/spaces/$spaceId/revisions/$revisionId"
          params={{ organizationId, spaceId, revisionId: revision.id }}
          aria-label={`View the space at this revision: ${title}`}
        >
          View the space at this revision
        </Link>
        {revision.type === 'merge' && before && (
          <Link
            to="/o/$organizationId/spaces/$spaceId/revisions/$revisionId"
            params={{ organizationId, spaceId, revisionId: before }}
            aria-label={`View the space before: ${title}`}
          >
            View the space before
          </Link>
        )}
      </p>
    </li>
  );
}

function changeText(change: SemanticChange): { verb: string; name: string } {
  switch (change.type) {
    case 'page_created':
      return { verb: 'Added', name: change.page.title || 'Untitled' };
    case 'page_edited':
      return { verb: 'Edited', name: change.page.title || 'Untitled' };
    case 'page_deleted':
      return { verb: 'Deleted', name: change.page.title || 'Untitled' };
    case 'page_moved':
      return { verb: 'Moved', name: change.page.title || 'Untitled' };
    case 'file_created':
      return { verb: 'Added file', name: change.file.name };
    case 'file_edited':
      return { verb: 'Replaced file', name: change.file.name };
    case 'file_deleted':
      return { verb: 'Deleted file', name: change.file.name };
    case 'reusable_content_created':
      return { verb: 'Added reusable content', name: change.reusableContent.title || 'Untitled' };
    case 'reusable_content_edited':
      return { verb: 'Edited reusable content', name: change.reusableContent.title || 'Untitled' };
    case 'reusable_content_deleted':
      return { verb: 'Deleted reusable content', name: change.reusableContent.title || 'Untitled' };
  }
}

/** What a revision changed, read once the revision scrolls near the screen: a page of history is not 20 requests. */
function RevisionChanges({ spaceId, revisionId }: { spaceId: string; revisionId: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const seen = useSeen(ref);
  const changes = useQuery({ ...revisionChangesQueryOptions(spaceId, revisionId), enabled: seen });
  return <div ref={ref}>{changesView(changes)}</div>;
}

function changesView(changes: UseQueryResult<z.output<typeof revisionChangesSchema>>) {
  if (changes.isPending) return <p className="history-changes-pending">Reading what changed…</p>;
  if (changes.isError) {
    return (
      <p className="history-changes-error" role="alert">
        What this revision changed could not be read.{' '}
        <Button size="sm" variant="ghost" onClick={() => void changes.refetch()}>
          Try again
        </Button>
      </p>
    );
  }
  const { changes: list, more } = changes.data;
  if (!list.length) return <p className="history-changes-none">No change to pages or files.</p>;
  return (
    <ul className="history-changes" aria-label="What changed">
      {list.map((change, i) => {
        const { verb, name } = changeText(change);
        return (
          <li key={i} className={`history-change history-change-${change.type}`}>
            <span className="history-change-verb">{verb}</span> {name}
            {'page' in change && change.page.path ? (
              <span className="history-change-path"> /{change.page.path}</span>
            ) : null}
          </li>
        );
      })}
      {more ? <li className="history-change-more">and {more} more</li> : null}
    </ul>
  );
}
