import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { ErrorState, FormError, Loading } from '../../../components/ui/states';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { ROLE_HINTS } from '../../../lib/roles';
import { useInvitePreview } from '../api/get-invite-preview';
import { userQueryOptions } from '../api/get-user';
import { useJoinOrganization } from '../api/join-organization';
import { useLogout } from '../api/logout';
import { SignupForm } from '../forms/signup-form';
import { aRole, raisesRole } from '../utils/invitations';
import '../auth.css';

interface Props {
  organizationId: string;
  inviteId: string;
  /** Where this page is, to come back to after signing in. */
  here: string;
  onJoined: () => void;
}

/**
 * Following an invite link: first which organization it leads to and with which role; then a signed-in person joins
 * with one click (a member already sees their role, and joins only when the link gives more); anyone else creates
 * an account that joins on the way, or signs in first and comes back here.
 */
export function JoinOrganization({ organizationId, inviteId, here, onJoined }: Props) {
  const user = useQuery(userQueryOptions());
  const preview = useInvitePreview(organizationId, inviteId);
  const join = useJoinOrganization();
  const navigate = useNavigate();
  const logout = useLogout({ afterSignOut: () => navigate({ to: '/login', search: { redirect: here } }) });

  if (user.isPending || preview.isPending) return <Loading />;
  if (user.isError && !isApiError(user.error, 401)) {
    return <ErrorState error={user.error} onRetry={() => void user.refetch()} />;
  }
  if (preview.isError) {
    return isApiError(preview.error, 404) ? (
      <div className="form">
        <p className="notice notice-warning" role="alert">
          This invite link does not work: it was deleted, or its organization turned invite links off. Ask the person
          who sent it for a new one.
        </p>
        <Link to={user.data ? '/' : '/login'} className={buttonClass('secondary', 'md', 'btn-block')}>
          {user.data ? 'Go to your organizations' : 'Sign in'}
        </Link>
      </div>
    ) : (
      <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />
    );
  }
  const { organization, role, membership } = preview.data;
  const offer = (
    <div className="join-offer" role="status">
      <p>
        You are invited to join <strong>{organization.title}</strong> as <strong>{aRole(role)}</strong>.
      </p>
      <p className="field-hint">{ROLE_HINTS[role ?? 'guest']}</p>
    </div>
  );
  if (!user.data) {
    return (
      <>
        {offer}
        <SignupForm invite={{ organization: organizationId, id: inviteId }} onSignedUp={onJoined} />
        <p className="auth-footer">
          Already have an account?{' '}
          <Link to="/login" search={{ redirect: here }}>
            Sign in to join
          </Link>
        </p>
      </>
    );
  }
  // A member already: the link can only raise their role, never lower it.
  const raises = membership ? raisesRole(membership.role, role) : true;
  return (
    <div className="form">
      {membership ? (
        <p className="join-offer" role="status">
          You are already a member of <strong>{organization.title}</strong>, as {aRole(membership.role)}.
          {raises && <> Joining with this link makes you {aRole(role)}.</>}
        </p>
      ) : (
        offer
      )}
      <p>
        You are signed in as <strong>{user.data.displayName}</strong>
        {user.data.email && <> ({user.data.email})</>}.
      </p>
      <FormError message={join.isError ? errorMessage(join.error) : undefined} />
      {raises ? (
        <Button
          variant="primary"
          className="btn-block"
          loading={join.isPending}
          onClick={() => join.mutate({ organizationId, inviteId }, { onSuccess: onJoined })}
        >
          Join organization
        </Button>
      ) : (
        <Link to="/o/$organizationId" params={{ organizationId }} className={buttonClass('primary', 'md', 'btn-block')}>
          Open {organization.title}
        </Link>
      )}
      <Button variant="ghost" className="btn-block" loading={logout.isPending} onClick={() => logout.mutate()}>
        Use another account
      </Button>
    </div>
  );
}
