import { useState } from 'react';
import type { ApiToken } from '../../../../shared/contract';
import { changePasswordBodySchema, PASSWORD_MIN } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { CheckboxField, TextField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useChangePassword } from '../api/change-password';
import { z } from 'zod';
import '../account.css';

/** The contract's body, with the new password typed twice (UI only). */
const passwordFormSchema = changePasswordBodySchema
  .extend({ confirmPassword: z.string() })
  .refine((values) => values.confirmPassword === values.newPassword, {
    path: ['confirmPassword'],
    message: 'The two new passwords are not the same.',
  });

/**
 * "Change password": the current one typed again, then the new one twice; other sessions are then signed out, and
 * the lasting API tokens revoked when asked. Afterwards it says which tokens still work.
 */
export function PasswordForm() {
  const change = useChangePassword();
  const toast = useToast();
  const [remaining, setRemaining] = useState<ApiToken[] | null>(null);
  const form = useZodForm(passwordFormSchema, {
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '', revokeTokens: false },
    mode: 'onTouched',
  });
  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword, revokeTokens }) => {
    try {
      const changed = await change.mutateAsync({ currentPassword, newPassword, revokeTokens: revokeTokens === true });
      form.reset();
      setRemaining(changed.remainingTokens);
      const { signedOut, revokedTokens } = changed;
      toast.show(
        [
          'Password changed.',
          signedOut > 0 &&
            `${signedOut === 1 ? 'One other session was' : `${signedOut} other sessions were`} signed out.`,
          revokedTokens > 0 &&
            `${revokedTokens === 1 ? 'One API token was' : `${revokedTokens} API tokens were`} revoked.`,
        ]
          .filter(Boolean)
          .join(' '),
      );
    } catch (error) {
      showServerError(form, error, ['currentPassword', 'newPassword']);
    }
  });
  return (
    <form className="form password-form" onSubmit={onSubmit} noValidate aria-label="Change password">
      <FormError message={form.formState.errors.root?.server?.message} />
      {remaining && remaining.length > 0 && (
        <div className="notice notice-warning" role="status">
          <p>
            {remaining.length === 1 ? 'This API token still works' : `These ${remaining.length} API tokens still work`}{' '}
            with the new password: {remaining.map((token) => token.label).join(', ')}. Revoke any you no longer trust
            under API tokens.
          </p>
        </div>
      )}
      <TextField
        control={form.control}
        name="currentPassword"
        label="Current password"
        type="password"
        autoComplete="current-password"
      />
      <TextField
        control={form.control}
        name="newPassword"
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN} characters.`}
      />
      <TextField
        control={form.control}
        name="confirmPassword"
        label="New password again"
        type="password"
        autoComplete="new-password"
      />
      <CheckboxField
        control={form.control}
        name="revokeTokens"
        label="Also revoke my API tokens"
        hint="Scripts and services using them will be refused until you give them new ones."
      />
      <div className="form-actions">
        <Button type="submit" variant="primary" loading={form.formState.isSubmitting}>
          Change password
        </Button>
      </div>
    </form>
  );
}
