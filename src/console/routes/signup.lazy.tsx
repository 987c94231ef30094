import { Link, useRouter } from '@tanstack/react-router';
import { AuthLayout } from '../components/layout/auth-layout';
import { DocumentTitle } from '../components/ui/page';
import { SignupForm } from '../features/auth/forms/signup-form';
import { signupRoute } from './signup';

export function SignupPage() {
  const { redirect: target } = signupRoute.useSearch();
  const router = useRouter();
  return (
    <AuthLayout
      title="Create your account"
      subtitle="Start a workspace for your team's documentation."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" search={{ redirect: target }}>
            Sign in
          </Link>
        </>
      }
    >
      <DocumentTitle>Sign up</DocumentTitle>
      <SignupForm onSignedUp={() => void router.navigate({ href: target ?? '/', replace: true })} />
    </AuthLayout>
  );
}
