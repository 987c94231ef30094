import { Link } from '@tanstack/react-router';
import { BellIcon } from '../../../components/ui/icons';
import { useUnreadCount } from '../api/unread';
import '../bell.css';

/** The bell in the top bar: how many notifications wait unread (asked every 10 s), and the way to the inbox. */
export function InboxButton() {
  const unread = useUnreadCount();
  const count = unread.data?.count ?? 0;
  const label = count === 0 ? 'Notifications' : `Notifications, ${count} unread`;
  return (
    <Link to="/inbox" className="btn btn-ghost inbox-button" aria-label={label} title={label}>
      <BellIcon />
      {count > 0 && (
        <span className="inbox-count" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
