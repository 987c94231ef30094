import { useState } from 'react';
import { DISPLAY_NAME_MAX, PASSWORD_MIN } from '../../../../shared/contract/constants';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { AlertIcon } from '../../../components/ui/icons';
import { FormError } from '../../../components/ui/states';
import { isApiError } from '../../../lib/api-client';
import { showServerError, useZodForm } from '../../../lib/form';
import { useSignup } from '../api/signup';
import '../auth.css';

/** The contract's sign-up rules, loaded with zod when the person starts typing (lib/form.ts). */
const loadSignupSchema = () => import('../../../../shared/contract').then((contract) => contract.signupBodySchema);

/** `invite`: an invite link followed here; the new account joins its organization on the way. */
export function SignupForm({
  onSignedUp,
  invite,
}: {
  onSignedUp: () => void;
  invite?: { organization: string; id: string };
}) {
  const form = useZodForm(loadSignupSchema, {
    defaultValues: { displayName: '', email: '', password: '' },
    mode: 'onTouched',
  });
  const signup = useSignup();
  const [closedMessage, setClosedMessage] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await signup.mutateAsync(invite ? { ...values, invite } : values);
      onSignedUp();
    } catch (error) {
      if (isApiError(error, 403)) setClosedMessage(error.message);
      else showServerError(form, error);
    }
  });

  if (closedMessage !== null) {
    return (
      <div className="notice notice-warning" role="alert">
        <AlertIcon />
        <div>
          <p className="notice-title">Sign-up is closed on this server</p>
          <p>
            New accounts are created by an administrator. Ask the administrator of your organization to invite you, then
            sign in.
          </p>
          {closedMessage && <p className="notice-meta">Server said: {closedMessage}</p>}
        </div>
      </div>
    );
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <FormError message={form.formState.errors.root?.server?.message} />
      <TextField
        control={form.control}
        name="displayName"
        label="Your name"
        autoComplete="name"
        max={DISPLAY_NAME_MAX}
        autoFocus
        required
      />
      <TextField control={form.control} name="email" label="E-mail" type="email" autoComplete="email" required />
      <TextField
        control={form.control}
        name="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN} characters.`}
        required
      />
      <Button type="submit" variant="primary" className="btn-block" loading={form.formState.isSubmitting}>
        Create account
      </Button>
    </form>
  );
}
