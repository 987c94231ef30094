import { useState } from 'react';
import type { User } from '../../../../shared/contract';
import { changeEmailBodySchema } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { showServerError, useZodForm } from '../../../lib/form';
import { useChangeEmail, useResendVerification } from '../api/email';
import '../account.css';

/**
 * The account's address: whether it is confirmed (with a new link on request: invitations to it wait until then),
 * and moving the account to another address, which that address confirms.
 */
export function EmailSettings({ user }: { user: User }) {
  const resend = useResendVerification();
  const toast = useToast();
  return (
    <div className="section email-settings">
      {user.emailVerified === false ? (
        <div className="notice notice-warning" role="status">
          <p>
            <strong>{user.email}</strong> is not confirmed yet. Follow the link we sent to it: until then, invitations
            to this address wait, and it cannot link single sign-on.
          </p>
          <Button
            loading={resend.isPending}
            onClick={() =>
              resend.mutate(undefined, {
                onSuccess: () => toast.show(`A new link was sent to ${user.email}`),
                onError: (error) => toast.show(errorMessage(error), 'error'),
              })
            }
          >
            Send the link again
          </Button>
        </div>
      ) : (
        <p className="section-text">
          <strong>{user.email}</strong> is confirmed.
        </p>
      )}
      <ChangeEmailForm />
    </div>
  );
}

function ChangeEmailForm() {
  const change = useChangeEmail();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useZodForm(changeEmailBodySchema, { defaultValues: { email: '', password: '' }, mode: 'onTouched' });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await change.mutateAsync(values);
      form.reset();
      setSentTo(values.email);
    } catch (error) {
      showServerError(form, error, ['email', 'password']);
    }
  });
  return (
    <form className="form email-form" onSubmit={onSubmit} noValidate aria-label="Change e-mail address">
      <FormError message={form.formState.errors.root?.server?.message} />
      {sentTo && (
        <div className="notice notice-info" role="status">
          <p>
            We sent a link to <strong>{sentTo}</strong>. Your account keeps its current address until you follow it
            (within 48 hours); your current address was told of the change.
          </p>
        </div>
      )}
      <TextField control={form.control} name="email" label="New e-mail address" type="email" autoComplete="email" />
      <TextField
        control={form.control}
        name="password"
        label="Password for this change"
        type="password"
        autoComplete="current-password"
        hint="Your current password, typed again to confirm it is you."
      />
      <div className="form-actions">
        <Button type="submit" loading={form.formState.isSubmitting}>
          Change address
        </Button>
      </div>
    </form>
  );
}
