import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Button, buttonClass } from '../../../components/ui/button';
import { KeyIcon } from '../../../components/ui/icons';
import { ErrorState, Loading } from '../../../components/ui/states';
import { useSsoLogins } from '../api/get-sso-logins';
import { lastSsoOrganization, parseOrganizationRef, rememberSsoOrganization } from '../utils/sso';

interface Props {
  /** Whether the SSO part is open (the URL says so, `?method=sso`); closed, it is a link that opens it. */
  open: boolean;
  /** The organization named so far (kept in the URL, `?organization=`). */
  organizationId?: string;
  onOrganizationChange: (organizationId: string | undefined) => void;
}

/**
 * "Sign in with SSO": name the organization (its id or any address of it), then choose one of its identity
 * providers; the button leads to the provider's start URL, which sends the browser to the identity provider.
 */
export function SsoSignIn({ open, organizationId, onOrganizationChange }: Props) {
  const id = useId();
  const [text, setText] = useState(organizationId ?? '');
  const [invalid, setInvalid] = useState(false);
  const [hint] = useState(lastSsoOrganization);
  const logins = useSsoLogins(organizationId);

  if (!open) {
    return (
      <Link
        to="/login"
        search={(previous) => ({ ...previous, method: 'sso' as const })}
        className={buttonClass('secondary', 'md', 'btn-block')}
      >
        <KeyIcon /> Sign in with SSO
      </Link>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseOrganizationRef(text);
    setInvalid(!parsed);
    if (parsed) onOrganizationChange(parsed);
  };
  return (
    <section className="sso-sign-in" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="sso-title">
        Sign in with SSO
      </h2>
      <form className="form" onSubmit={submit} noValidate>
        <div className={`field${invalid ? ' field-invalid' : ''}`}>
          <label className="field-label" htmlFor={id}>
            Organization
          </label>
          <div className="copy-field-row">
            <input
              id={id}
              className="input"
              value={text}
              autoComplete="organization"
              placeholder="Organization id or address"
              aria-invalid={invalid || undefined}
              aria-describedby={`${id}-hint${invalid ? ` ${id}-error` : ''}`}
              onChange={(event) => setText(event.target.value)}
            />
            <Button type="submit">Continue</Button>
          </div>
          <p id={`${id}-hint`} className="field-hint">
            Its id is in the console's addresses (…/o/<em>id</em>); paste one if you have it.
          </p>
          {invalid && (
            <p id={`${id}-error`} className="field-error" role="alert">
              Enter an organization id, or an address of the organization.
            </p>
          )}
        </div>
        {hint && hint !== organizationId && (
          <p className="field-hint">
            Last used here:{' '}
            <button
              type="button"
              className="link-button sso-hint"
              onClick={() => {
                setText(hint);
                onOrganizationChange(hint);
              }}
            >
              {hint}
            </button>
          </p>
        )}
      </form>
      {organizationId &&
        (logins.isPending ? (
          <Loading label="Looking for its sign-in options…" />
        ) : logins.isError ? (
          <ErrorState error={logins.error} onRetry={() => void logins.refetch()} />
        ) : logins.data.length === 0 ? (
          <p className="notice notice-info" role="status">
            This organization has no single sign-on. Check its id, or sign in with your password.
          </p>
        ) : (
          <ul className="sso-providers" aria-label="Identity providers">
            {logins.data.map((login) => (
              <li key={login.id}>
                <a
                  className={buttonClass('primary', 'md', 'btn-block')}
                  href={login.startURL}
                  onClick={() => rememberSsoOrganization(organizationId)}
                >
                  Sign in with {login.label}
                </a>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
