import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { LinkIcon } from '../../../components/ui/icons';
import { ErrorState, FormError, Loading } from '../../../components/ui/states';
import { showServerError, useZodForm } from '../../../lib/form';
import { useLinkChoices } from '../api/get-link-choices';
import type { OrganizationRef } from '../api/get-link-choices';
import { useSsoLinks } from '../api/get-sso-links';
import { useStartSsoLink } from '../api/start-sso-link';
import { startSsoLinkBodySchema } from '../../../../shared/contract';
import { linkChoiceOptions } from '../utils/choices';
import '../account.css';

/**
 * "Link a provider": one of the identity providers of the caller's organizations, and the account's password typed
 * again; the browser then goes to the identity provider and comes back to this page.
 */
export function LinkProviderForm({ organizations }: { organizations: OrganizationRef[] }) {
  const links = useSsoLinks();
  const choices = useLinkChoices(organizations);
  const start = useStartSsoLink();
  // Set once the browser is on its way to the identity provider: the button keeps spinning until the page goes.
  const [leaving, setLeaving] = useState(false);
  const form = useZodForm(startSsoLinkBodySchema, {
    defaultValues: { provider: '', password: '' },
    mode: 'onTouched',
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { redirectURL } = await start.mutateAsync(values);
      setLeaving(true);
      window.location.assign(redirectURL);
    } catch (error) {
      showServerError(form, error, ['provider', 'password']);
    }
  });

  if (choices.isPending) return <Loading label="Looking for your organizations' providers…" />;
  if (choices.error) return <ErrorState error={choices.error} onRetry={choices.refetch} />;
  if (choices.choices.length === 0) {
    return (
      <p className="notice notice-info">
        None of your organizations has an identity provider yet. When an administrator adds one, you can link it here.
      </p>
    );
  }
  const linked = new Set(links.data?.map((link) => link.provider.id));
  const options = linkChoiceOptions(choices.choices, linked);
  const available = options.filter((option) => option.value && !option.disabled).length;
  return (
    <form className="form link-provider-form" onSubmit={onSubmit} noValidate aria-label="Link a provider">
      <FormError message={form.formState.errors.root?.server?.message} />
      {available === 0 ? (
        <p className="notice notice-info">Every provider of your organizations is linked to your account already.</p>
      ) : (
        <>
          <SelectField
            control={form.control}
            name="provider"
            label="Identity provider"
            hint="The providers of the organizations you are a member of."
            options={options}
          />
          <TextField
            control={form.control}
            name="password"
            label="Your password"
            type="password"
            autoComplete="current-password"
            hint="Typed again to prove it is you. Linking works only while signed in with your password."
          />
          <div className="form-actions">
            <Button type="submit" variant="primary" loading={form.formState.isSubmitting || leaving}>
              <LinkIcon /> Continue to the provider
            </Button>
          </div>
        </>
      )}
    </form>
  );
}
