import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { showServerError, useZodForm } from '../../../lib/form';
import { useLogin } from '../api/login';

/** The contract's sign-in rule, loaded with zod when the person starts typing (lib/form.ts). */
const loadLoginSchema = () => import('../../../../shared/contract').then((contract) => contract.loginBodySchema);

/**
 * E-mail and password. Checked when submitted, then while typing: leaving a field empty for "Sign in with SSO" is
 * not a mistake. `autoFocus` is off when the page opens on single sign-on instead.
 */
export function LoginForm({ onSignedIn, autoFocus = true }: { onSignedIn: () => void; autoFocus?: boolean }) {
  const form = useZodForm(loadLoginSchema, { defaultValues: { email: '', password: '' }, mode: 'onSubmit' });
  const login = useLogin();
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await login.mutateAsync(values);
      onSignedIn();
    } catch (error) {
      showServerError(form, error);
    }
  });
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <FormError message={form.formState.errors.root?.server?.message} />
      <TextField
        control={form.control}
        name="email"
        label="E-mail"
        type="email"
        autoComplete="username"
        autoFocus={autoFocus}
        required
      />
      <TextField
        control={form.control}
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
      />
      <Button type="submit" variant="primary" className="btn-block" loading={form.formState.isSubmitting}>
        Sign in
      </Button>
    </form>
  );
}
