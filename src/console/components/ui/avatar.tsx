import type { User } from '../../../shared/contract';
import { initials } from '../../lib/people';

/** A person's photo, or their initials; decorative, since their name is always written beside it. */
export function Avatar({ user, size = 28 }: { user: Pick<User, 'displayName' | 'email' | 'photoURL'>; size?: number }) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  if (user.photoURL) return <img className="avatar" src={user.photoURL} alt="" style={style} aria-hidden="true" />;
  return (
    <span className="avatar" aria-hidden="true" style={style}>
      {initials(user.displayName || user.email || '')}
    </span>
  );
}
