import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { ErrorState, FormError, Loading } from '../../../components/ui/states';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { ROLE_HINTS } from '../../../lib/roles';
import { forgetInvitationSecret, useAnswerInvitationLink, useInvitationCheck } from '../api/email-invitation';
import { userQueryOptions } from '../api/get-user';
import { useLogout } from '../api/logout';
import { SignupForm } from '../forms/signup-form';
import { aRole } from '../utils/invitations';
import '../auth.css';

interface Props {
  invitationId: string;
  /** The link's secret (from its fragment, or kept for the tab's session); null when the link came without it. */
  token: string | null;
  /** Where this page is, to come back to after signing in. */
  here: string;
  onJoined: (organizationId: string) => void;
}

/**
 * Following an invitation's link: what it invites to, then, by who is here: the invited address signed in accepts
 * or declines; someone signed in as another account is told so (and may switch); signed out, an address with an
 * account signs in and comes back, and one without creates its account from here (its address fixed, and verified
 * by the link itself).
 */
export function EmailInvitation({ invitationId, token, here, onJoined }: Props) {
  const user = useQuery({ ...userQueryOptions(), retry: false });
  const check = useInvitationCheck(invitationId, token);
  const answer = useAnswerInvitationLink(invitationId);
  const navigate = useNavigate();
  const logout = useLogout({ afterSignOut: () => navigate({ to: '/login', search: { redirect: here } }) });

  if (token === null || check.isError) {
    if (check.isError && !isApiError(check.error, 404)) {
      return <ErrorState error={check.error} onRetry={() => void check.refetch()} />;
    }
    return (
      <div className="form">
        <p className="notice notice-warning" role="alert">
          This invitation does not work any more: it was accepted, revoked, sent again with a new link, or it expired.
          Ask the person who invited you to send it again.
        </p>
        <Link to="/" className={buttonClass('secondary', 'md', 'btn-block')}>
          Open Docspace
        </Link>
      </div>
    );
  }
  if (user.isPending || check.isPending) return <Loading />;
  if (user.isError && !isApiError(user.error, 401)) {
    return <ErrorState error={user.error} onRetry={() => void user.refetch()} />;
  }
  const invitation = check.data;
  const offer = (
    <div className="join-offer" role="status">
      <p>
        {invitation.invitedBy ? `${invitation.invitedBy.displayName} invited` : 'You are invited'}{' '}
        <strong>{invitation.email}</strong> to join <strong>{invitation.organization.title}</strong> as{' '}
        <strong>{aRole(invitation.role)}</strong>.
      </p>
      <p className="field-hint">{ROLE_HINTS[invitation.role ?? 'guest']}</p>
    </div>
  );
  if (!user.data) {
    return invitation.hasAccount ? (
      <div className="form">
        {offer}
        <p>An account uses this address: sign in to it to accept.</p>
        <Link to="/login" search={{ redirect: here }} className={buttonClass('primary', 'md', 'btn-block')}>
          Sign in to accept
        </Link>
      </div>
    ) : (
      <>
        {offer}
        <SignupForm
          invitation={{ id: invitationId, token, email: invitation.email }}
          onSignedUp={() => {
            forgetInvitationSecret(invitationId);
            onJoined(invitation.organization.id);
          }}
        />
      </>
    );
  }
  if (user.data.email !== invitation.email) {
    return (
      <div className="form">
        {offer}
        <p className="notice notice-warning" role="alert">
          You are signed in as <strong>{user.data.email}</strong>; this invitation is for {invitation.email}. Sign in
          with that address to accept it.
        </p>
        <Button variant="primary" className="btn-block" loading={logout.isPending} onClick={() => logout.mutate()}>
          Use another account
        </Button>
      </div>
    );
  }
  const respond = (kind: 'accept' | 'decline') =>
    answer.mutate(
      { token, answer: kind },
      {
        onSuccess: () => {
          forgetInvitationSecret(invitationId);
          if (kind === 'accept') onJoined(invitation.organization.id);
          else void navigate({ to: '/' });
        },
      },
    );
  return (
    <div className="form">
      {offer}
      <FormError message={answer.isError ? errorMessage(answer.error) : undefined} />
      <Button variant="primary" className="btn-block" loading={answer.isPending} onClick={() => respond('accept')}>
        Accept and join
      </Button>
      <Button variant="ghost" className="btn-block" disabled={answer.isPending} onClick={() => respond('decline')}>
        Decline
      </Button>
    </div>
  );
}
