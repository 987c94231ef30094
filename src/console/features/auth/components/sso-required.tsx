import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../../components/ui/button';
import { KeyIcon } from '../../../components/ui/icons';
import { ErrorState, Loading } from '../../../components/ui/states';
import { useSsoLogins } from '../api/get-sso-logins';
import '../auth.css';

/**
 * What a member sees of an organization that enforces single sign-on when their session did not come through one
 * of its identity providers (403 `sso-required`): the way in, one button per provider, instead of "no access".
 */
export function SsoRequired({ organizationId, title }: { organizationId: string; title?: string }) {
  const logins = useSsoLogins(organizationId);
  const name = title ?? 'This organization';
  return (
    <div className="state sso-required" role="alert" aria-labelledby="sso-required-title">
      <div className="state-icon">
        <KeyIcon width={24} height={24} />
      </div>
      <h2 id="sso-required-title" className="state-title">
        {name} requires single sign-on
      </h2>
      <p className="state-text">
        Its members reach it only by signing in through one of its identity providers. Your other organizations, and
        signing in with your password, are not affected.
      </p>
      {logins.isPending ? (
        <Loading label="Loading its identity providers…" />
      ) : logins.isError ? (
        <ErrorState error={logins.error} onRetry={() => void logins.refetch()} />
      ) : logins.data.length === 0 ? (
        <p className="notice notice-info">It has no identity provider yet: ask one of its admins to add one.</p>
      ) : (
        <ul className="sso-providers" aria-label={`Identity providers of ${name}`} role="list">
          {logins.data.map((login) => (
            <li key={login.id}>
              <a className={buttonClass('primary', 'md', 'btn-block')} href={login.startURL}>
                Sign in with {login.label}
              </a>
            </li>
          ))}
        </ul>
      )}
      <p className="state-text">
        Your account is not known to the provider yet? Link it first from your{' '}
        <Link to="/account">account settings</Link>, signed in with your password.
      </p>
      <div className="state-action">
        <Link to="/" className={buttonClass('secondary')}>
          Go to your organizations
        </Link>
      </div>
    </div>
  );
}
