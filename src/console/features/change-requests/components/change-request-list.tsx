import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { ChangeRequest, ChangeRequestStatus } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ChangeRequestIcon } from '../../../components/ui/icons';
import { EmptyState } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useChangeRequestCount, useChangeRequests } from '../api/get-change-requests';
import { changeRequestTitle, plural, STATUS_LABELS, STATUS_ORDER } from '../utils/labels';
import '../change-requests.css';

interface Props {
  organizationId: string;
  spaceId: string;
  status: ChangeRequestStatus;
  /** "New change request", when the viewer may start one. */
  createAction?: ReactNode;
}

/** The change requests of a space, by status: a tab per status with its count, and the list of the chosen one. */
export function ChangeRequestList({ organizationId, spaceId, status, createAction }: Props) {
  return (
    <section className="section" aria-labelledby="change-requests-title">
      <div className="section-header">
        <h2 id="change-requests-title" className="section-title">
          Change requests
        </h2>
        {createAction}
      </div>
      <nav className="status-tabs" aria-label="Change requests by status">
        {STATUS_ORDER.map((value) => (
          <StatusTab
            key={value}
            organizationId={organizationId}
            spaceId={spaceId}
            status={value}
            current={value === status}
          />
        ))}
      </nav>
      <Items organizationId={organizationId} spaceId={spaceId} status={status} createAction={createAction} />
    </section>
  );
}

function StatusTab({
  organizationId,
  spaceId,
  status,
  current,
}: {
  organizationId: string;
  spaceId: string;
  status: ChangeRequestStatus;
  current: boolean;
}) {
  const count = useChangeRequestCount(spaceId, status);
  // While loading, "…"; if the count cannot be had, "–": the tab works either way.
  const shown = count.data ?? (count.isError ? '–' : '…');
  return (
    <Link
      to="/o/$organizationId/spaces/$spaceId/change-requests"
      params={{ organizationId, spaceId }}
      search={status === 'open' ? {} : { status }}
      className={current ? 'status-tab active' : 'status-tab'}
      aria-current={current ? 'page' : undefined}
      activeOptions={{ exact: true, includeSearch: true }}
    >
      {STATUS_LABELS[status].tab}
      <span className="status-tab-count" aria-label={count.data === undefined ? undefined : `(${count.data})`}>
        {shown}
      </span>
    </Link>
  );
}

function Items({ organizationId, spaceId, status, createAction }: Props) {
  const { data, hasNextPage, fetchNextPage, isFetchingNextPage } = useChangeRequests(spaceId, status);
  const items = data.pages.flatMap((page) => page.items);
  if (items.length === 0) {
    return (
      <EmptyState
        icon={<ChangeRequestIcon width={28} height={28} />}
        title={`No ${STATUS_LABELS[status].label.toLowerCase()} change requests`}
        action={status === 'open' || status === 'draft' ? createAction : undefined}
      >
        {STATUS_LABELS[status].empty}
      </EmptyState>
    );
  }
  return (
    <>
      <ul className="cr-list" aria-label={`${STATUS_LABELS[status].tab} change requests`}>
        {items.map((changeRequest) => (
          <Item key={changeRequest.id} organizationId={organizationId} changeRequest={changeRequest} />
        ))}
      </ul>
      {hasNextPage && (
        <div className="list-more">
          <Button loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            Show more
          </Button>
        </div>
      )}
    </>
  );
}

function Item({ organizationId, changeRequest }: { organizationId: string; changeRequest: ChangeRequest }) {
  const { number, status, createdBy } = changeRequest;
  return (
    <li className="cr-item">
      <span className={`cr-status-dot cr-status-${status}`} aria-hidden="true">
        <ChangeRequestIcon />
      </span>
      <div className="cr-item-text">
        <Link
          to="/o/$organizationId/spaces/$spaceId/change-requests/$number"
          params={{ organizationId, spaceId: changeRequest.space, number }}
          className="cr-item-title"
        >
          {changeRequestTitle(changeRequest)}
        </Link>
        <span className="cr-item-meta">
          #{number} · {status === 'merged' && changeRequest.mergedAt ? 'merged ' : 'updated '}
          <RelativeTime
            value={status === 'merged' ? (changeRequest.mergedAt ?? changeRequest.updatedAt) : changeRequest.updatedAt}
          />{' '}
          · by {createdBy.displayName}
        </span>
      </div>
      <span className="cr-item-badges">
        {changeRequest.conflicts > 0 && (
          <span className="badge badge-danger">{plural(changeRequest.conflicts, 'conflict')}</span>
        )}
        {changeRequest.outdated && status !== 'merged' && <span className="badge badge-warning">Outdated</span>}
        {changeRequest.comments > 0 && <span className="badge">{plural(changeRequest.comments, 'comment')}</span>}
      </span>
    </li>
  );
}
