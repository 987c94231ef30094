import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { Button, buttonClass } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { KeyIcon } from '../../../components/ui/icons';
import { FormError } from '../../../components/ui/states';
import { showServerError, useZodForm } from '../../../lib/form';
import { useSsoDiscovery } from '../api/discover-sso';
import { domainOf } from '../utils/sso';
import '../auth.css';

interface Found {
  email: string;
  providers: Array<{ id: string; label: string; organization: { id: string; title: string }; startURL: string }>;
}

/**
 * "Sign in with SSO": the person gives their e-mail address; the server names the identity providers of the
 * organizations that verified its domain, and each button leads to its provider's start URL (which sends the
 * browser on to the identity provider). Closed (no `?method=sso`), it is a link that opens it.
 */
export function SsoSignIn({ open }: { open: boolean }) {
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
  return <SsoDiscovery />;
}

/** The contract's rule for the address, loaded with zod when the person starts typing (lib/form.ts). */
const loadDiscoverySchema = () =>
  import('../../../../shared/contract').then((contract) => contract.ssoDiscoveryBodySchema);

function SsoDiscovery() {
  const id = useId();
  const form = useZodForm(loadDiscoverySchema, { defaultValues: { email: '' }, mode: 'onSubmit' });
  const discovery = useSsoDiscovery();
  const [found, setFound] = useState<Found | null>(null);
  const email = form.watch('email');
  // What was found answers the address it was asked for; once the address changes, it is asked again.
  const shown = found && found.email === email.trim() ? found : null;
  const onSubmit = form.handleSubmit(async (values) => {
    setFound(null);
    try {
      const result = await discovery.mutateAsync(values);
      setFound({ email: values.email, providers: result.items });
    } catch (error) {
      showServerError(form, error, ['email']);
    }
  });
  return (
    <section className="sso-sign-in" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="sso-title">
        Sign in with SSO
      </h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <FormError message={form.formState.errors.root?.server?.message} />
        <TextField
          control={form.control}
          name="email"
          label="Work e-mail"
          type="email"
          autoComplete="email"
          autoFocus
          hint="Your organization's identity provider is found from the address's domain."
        />
        <Button type="submit" className="btn-block" loading={form.formState.isSubmitting}>
          Continue
        </Button>
      </form>
      {shown &&
        (shown.providers.length === 0 ? (
          <p className="notice notice-info" role="status">
            No organization offers single sign-on for addresses at {domainOf(shown.email)}. Sign in with your password,
            or ask your administrator whether your organization verified this domain.
          </p>
        ) : (
          <ul className="sso-providers" aria-label="Identity providers" role="list">
            {shown.providers.map((provider) => (
              <li key={provider.id}>
                <a className={buttonClass('primary', 'md', 'btn-block sso-provider')} href={provider.startURL}>
                  <span className="sso-provider-label">Sign in with {provider.label}</span>
                  <span className="sso-provider-org">{provider.organization.title}</span>
                </a>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
