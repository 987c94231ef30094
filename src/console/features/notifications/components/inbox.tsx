import { useInfiniteQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { Notification } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { BellIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { inboxQueryOptions, useMarkRead } from '../api/notifications';
import '../notifications.css';

/**
 * The inbox: newest first, unread ones marked; opening one marks it read and goes to what it is about. "Unread
 * only" narrows the list; "Mark all as read" empties the bell.
 */
export function Inbox() {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const list = useInfiniteQuery(inboxQueryOptions(unreadOnly));
  const markRead = useMarkRead();
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const anyUnread = items.some((n) => !n.readAt);
  return (
    <div className="section inbox">
      <div className="inbox-tools">
        <label className="checkbox-inline">
          <input type="checkbox" checked={unreadOnly} onChange={(event) => setUnreadOnly(event.target.checked)} />
          Unread only
        </label>
        <Button
          size="sm"
          disabled={!anyUnread}
          loading={markRead.isPending}
          onClick={() => markRead.mutate({ all: true })}
        >
          Mark all as read
        </Button>
      </div>
      {list.isPending ? (
        <Loading label="Loading notifications…" />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState
          icon={<BellIcon width={28} height={28} />}
          title={unreadOnly ? 'Nothing unread' : 'No notifications yet'}
          level={2}
        >
          Review requests, comments on your change requests, mentions and merges appear here.
        </EmptyState>
      ) : (
        <>
          <ul className="inbox-list" aria-label="Notifications">
            {items.map((n) => (
              <InboxItem key={n.id} notification={n} onOpen={() => !n.readAt && markRead.mutate({ ids: [n.id] })} />
            ))}
          </ul>
          {list.hasNextPage && (
            <Button onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
              Show more
            </Button>
          )}
        </>
      )}
    </div>
  );
}

function InboxItem({ notification: n, onOpen }: { notification: Notification; onOpen: () => void }) {
  const navigate = useNavigate();
  const unread = !n.readAt;
  const content = (
    <>
      <span className="inbox-summary">
        {unread && <span className="inbox-dot" aria-hidden="true" />}
        {n.summary}
      </span>
      {n.excerpt && <span className="inbox-excerpt">“{n.excerpt}”</span>}
      <span className="inbox-meta">
        {n.organization && <>{n.organization.title} · </>}
        <RelativeTime value={n.createdAt} />
        {unread && <span className="visually-hidden"> · unread</span>}
      </span>
    </>
  );
  return (
    <li className={`inbox-item${unread ? ' inbox-unread' : ''}`}>
      {n.available && n.target ? (
        <a
          href={n.target}
          className="inbox-link"
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            onOpen();
            void navigate({ href: n.target! });
          }}
        >
          {content}
        </a>
      ) : (
        <div className="inbox-link inbox-unavailable">{content}</div>
      )}
    </li>
  );
}
