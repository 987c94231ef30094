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

/**
 * `invite`: an invite link followed here; the new account joins its organization on the way. `invitation`: an
 * invitation by e-mail's link: the address is the invitation's (not editable), and it counts as verified.
 */
export function SignupForm({
  onSignedUp,
  invite,
  invitation,
}: {
  onSignedUp: () => void;
  invite?: { organization: string; id: string };
  invitation?: { id: string; token: string; email: string };
}) {
  const form = useZodForm(loadSignupSchema, {
    defaultValues: { displayName: '', email: invitation?.email ?? '', password: '' },
    mode: 'onTouched',
  });
  const signup = useSignup();
  const [closedMessage, setClosedMessage] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await signup.mutateAsync(
        invite
          ? { ...values, invite }
          : invitation
            ? { ...values, invitation: { id: invitation.id, token: invitation.token } }
            : values,
      );
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
      <TextField
        control={form.control}
        name="email"
        label="E-mail"
        type="email"
        autoComplete="email"
        required
        readOnly={invitation !== undefined}
        hint={invitation ? 'The address the invitation was sent to.' : undefined}
      />
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
