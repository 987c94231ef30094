import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { showServerError, useZodForm } from '../../../lib/form';
import { useRequestPasswordReset } from '../api/password-reset';

const loadSchema = () => import('../../../../shared/contract').then((contract) => contract.passwordResetRequestSchema);

/**
 * "Forgot your password?": the address, then one answer whatever it is (the server never says whether an account
 * uses it), with what to do when no message comes.
 */
export function ForgotPasswordForm({ email: initial = '' }: { email?: string }) {
  const form = useZodForm(loadSchema, { defaultValues: { email: initial }, mode: 'onSubmit' });
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await request.mutateAsync(values);
      setSentTo(values.email);
    } catch (error) {
      showServerError(form, error);
    }
  });
  if (sentTo) {
    return (
      <div className="notice notice-info" role="status">
        <p>
          If an account uses <strong>{sentTo}</strong>, we sent it a link to choose a new password. The link works for
          30 minutes.
        </p>
        <p>
          Nothing after a few minutes? Look in your spam folder, check the address, or ask the administrator of this
          server: without e-mail set up, they can pass the link on to you.
        </p>
        <Button variant="secondary" onClick={() => setSentTo(null)}>
          Use another address
        </Button>
      </div>
    );
  }
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Reset your password">
      <FormError message={form.formState.errors.root?.server?.message} />
      <TextField
        control={form.control}
        name="email"
        label="E-mail"
        type="email"
        autoComplete="username"
        autoFocus
        required
      />
      <Button type="submit" variant="primary" className="btn-block" loading={form.formState.isSubmitting}>
        Send me a link
      </Button>
    </form>
  );
}
