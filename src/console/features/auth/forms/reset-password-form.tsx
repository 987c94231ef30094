import { z } from 'zod';
import type { ApiToken } from '../../../../shared/contract';
import { passwordResetCompleteSchema, PASSWORD_MIN } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { CheckboxField, TextField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { showServerError, useZodForm } from '../../../lib/form';
import { useCompletePasswordReset } from '../api/password-reset';
import type { PasswordResetResult } from '../../../../shared/contract';

/** The contract's body without the link's secret (the page holds it), and the password typed twice (UI only). */
const resetFormSchema = passwordResetCompleteSchema
  .omit({ token: true })
  .extend({ confirmPassword: z.string() })
  .refine((values) => values.confirmPassword === values.newPassword, {
    path: ['confirmPassword'],
    message: 'The two passwords are not the same.',
  });

/**
 * The new password, twice, for the account of a reset link; the account's API tokens are listed with the choice to
 * revoke them, since a reset keeps them otherwise.
 */
export function ResetPasswordForm({
  token,
  tokens,
  onReset,
}: {
  token: string;
  tokens: ApiToken[];
  onReset: (result: PasswordResetResult) => void;
}) {
  const complete = useCompletePasswordReset();
  const form = useZodForm(resetFormSchema, {
    defaultValues: { newPassword: '', confirmPassword: '', revokeTokens: false },
    mode: 'onTouched',
  });
  const onSubmit = form.handleSubmit(async ({ newPassword, revokeTokens }) => {
    try {
      onReset(await complete.mutateAsync({ token, newPassword, revokeTokens: revokeTokens === true }));
    } catch (error) {
      showServerError(form, error, ['newPassword']);
    }
  });
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Choose a new password">
      <FormError message={form.formState.errors.root?.server?.message} />
      <TextField
        control={form.control}
        name="newPassword"
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN} characters.`}
        autoFocus
      />
      <TextField
        control={form.control}
        name="confirmPassword"
        label="New password again"
        type="password"
        autoComplete="new-password"
      />
      {tokens.length > 0 && (
        <>
          <p className="field-hint">
            {tokens.length === 1 ? 'This API token' : `These ${tokens.length} API tokens`} of the account keep working
            after the reset unless you revoke them: {tokens.map((t) => t.label).join(', ')}.
          </p>
          <CheckboxField
            control={form.control}
            name="revokeTokens"
            label="Also revoke my API tokens"
            hint="Scripts and services using them will be refused until you give them new ones."
          />
        </>
      )}
      <p className="field-hint">Every session of the account is signed out, and this browser is signed in.</p>
      <Button type="submit" variant="primary" className="btn-block" loading={form.formState.isSubmitting}>
        Set the new password
      </Button>
    </form>
  );
}
