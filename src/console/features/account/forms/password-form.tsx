import { changePasswordBodySchema, PASSWORD_MIN } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
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

/** "Change password": the current one typed again, then the new one twice; other sessions are then signed out. */
export function PasswordForm() {
  const change = useChangePassword();
  const toast = useToast();
  const form = useZodForm(passwordFormSchema, {
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    mode: 'onTouched',
  });
  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      const { signedOut } = await change.mutateAsync({ currentPassword, newPassword });
      form.reset();
      toast.show(
        signedOut === 0
          ? 'Password changed.'
          : `Password changed. ${signedOut === 1 ? 'One other session was' : `${signedOut} other sessions were`} signed out.`,
      );
    } catch (error) {
      showServerError(form, error, ['currentPassword', 'newPassword']);
    }
  });
  return (
    <form className="form password-form" onSubmit={onSubmit} noValidate aria-label="Change password">
      <FormError message={form.formState.errors.root?.server?.message} />
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
      <div className="form-actions">
        <Button type="submit" variant="primary" loading={form.formState.isSubmitting}>
          Change password
        </Button>
      </div>
    </form>
  );
}
