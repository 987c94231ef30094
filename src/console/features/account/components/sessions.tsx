import { useRef, useState } from 'react';
import type { UserSession } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorState, Loading } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { useSessions } from '../api/get-sessions';
import { useSignOutOtherSessions, useSignOutSession } from '../api/sign-out-sessions';
import { describeUserAgent } from '../utils/photo';
import '../account.css';

/** Where the account is signed in to the console: this session first; sign out one, or all the others. */
export function Sessions() {
  const sessions = useSessions();
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const signOutOthers = useSignOutOtherSessions();
  const toast = useToast();
  if (sessions.isPending) return <Loading label="Loading sessions…" />;
  if (sessions.isError) return <ErrorState error={sessions.error} onRetry={() => void sessions.refetch()} />;
  const others = sessions.data.filter((session) => !session.current).length;
  return (
    <div className="section sessions">
      <ul className="session-list" aria-label="Sessions">
        {sessions.data.map((session) => (
          <SessionItem key={session.id} session={session} />
        ))}
      </ul>
      {others > 0 ? (
        <div className="form-actions">
          <Button ref={button} onClick={() => setConfirming(true)}>
            Sign out all other sessions
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            returnFocusRef={button}
            title="Sign out all other sessions?"
            confirmLabel="Sign out other sessions"
            action={async () => {
              const { signedOut } = await signOutOthers.mutateAsync();
              toast.show(signedOut === 1 ? 'One session signed out' : `${signedOut} sessions signed out`);
            }}
          >
            <p>
              {others === 1 ? 'The other session' : `The ${others} other sessions`} will need to sign in again. This one
              stays signed in, and your API tokens keep working.
            </p>
          </ConfirmDialog>
        </div>
      ) : (
        <p className="section-text">You are signed in nowhere else.</p>
      )}
    </div>
  );
}

function SessionItem({ session }: { session: UserSession }) {
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const signOut = useSignOutSession();
  const toast = useToast();
  const browser = describeUserAgent(session.userAgent);
  return (
    <li className={`session${session.current ? ' session-current' : ''}`} aria-label={browser}>
      <div className="session-text">
        <span className="session-head">
          <span className="session-title" title={session.userAgent}>
            {browser}
          </span>
          {session.current && <span className="badge badge-current">This session</span>}
          {session.method === 'sso' && <span className="badge">Single sign-on</span>}
        </span>
        <dl className="session-facts">
          <dt>Signed in</dt>
          <dd>
            <RelativeTime value={session.createdAt} />
            {session.ip && <> from {session.ip}</>}
          </dd>
          <dt>Last active</dt>
          <dd>{session.lastUsedAt ? <RelativeTime value={session.lastUsedAt} /> : 'Not since signing in'}</dd>
        </dl>
      </div>
      {!session.current && (
        <>
          <Button ref={button} size="sm" onClick={() => setConfirming(true)} aria-label={`Sign out ${browser}`}>
            Sign out
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            returnFocusRef={button}
            title={`Sign out ${browser}?`}
            confirmLabel="Sign out session"
            action={async () => {
              await signOut.mutateAsync(session.id);
              toast.show(`${browser} signed out`);
            }}
          >
            <p>That browser will need to sign in again to reach the console.</p>
          </ConfirmDialog>
        </>
      )}
    </li>
  );
}
