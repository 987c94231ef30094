import { createFileRoute, Link } from '@tanstack/react-router';
import { AuthLayout } from '../components/layout/auth-layout';
import { DocumentTitle } from '../components/ui/page';
import { ForgotPasswordForm } from '../features/auth/forms/forgot-password-form';

export const Route = createFileRoute('/forgot-password')({
  component: ForgotPasswordPage,
});

function ForgotPasswordPage() {
  return (
    <AuthLayout
      title="Reset your password"
      subtitle="Type the address of your account: we will send it a link to choose a new password."
      footer={
        <>
          Remembered it? <Link to="/login">Sign in</Link>
        </>
      }
    >
      <DocumentTitle>Reset your password</DocumentTitle>
      <ForgotPasswordForm />
    </AuthLayout>
  );
}
