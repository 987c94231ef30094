import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button } from '../../../components/ui/button';
import { ErrorState, FormError, Loading } from '../../../components/ui/states';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { userQueryOptions } from '../api/get-user';
import { useJoinOrganization } from '../api/join-organization';
import { useLogout } from '../api/logout';
import { SignupForm } from '../forms/signup-form';

interface Props {
  organizationId: string;
  inviteId: string;
  /** Where this page is, to come back to after signing in. */
  here: string;
  onJoined: () => void;
}

/**
 * Following an invite link: a signed-in person joins with one click; anyone else creates an account that joins on
 * the way, or signs in first and comes back here.
 */
export function JoinOrganization({ organizationId, inviteId, here, onJoined }: Props) {
  const user = useQuery(userQueryOptions());
  const join = useJoinOrganization();
  const navigate = useNavigate();
  const logout = useLogout({ afterSignOut: () => navigate({ to: '/login', search: { redirect: here } }) });

  if (user.isPending) return <Loading />;
  if (user.isError && !isApiError(user.error, 401)) {
    return <ErrorState error={user.error} onRetry={() => void user.refetch()} />;
  }
  if (!user.data) {
    return (
      <>
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
  return (
    <div className="form">
      <p>
        You are signed in as <strong>{user.data.displayName}</strong>
        {user.data.email && <> ({user.data.email})</>}.
      </p>
      <FormError message={join.isError ? errorMessage(join.error) : undefined} />
      <Button
        variant="primary"
        className="btn-block"
        loading={join.isPending}
        onClick={() => join.mutate({ organizationId, inviteId }, { onSuccess: onJoined })}
      >
        Join organization
      </Button>
      <Button variant="ghost" className="btn-block" loading={logout.isPending} onClick={() => logout.mutate()}>
        Use another account
      </Button>
    </div>
  );
}
