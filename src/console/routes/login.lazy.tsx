import { Link, useRouter } from '@tanstack/react-router';
import { AuthLayout } from '../components/layout/auth-layout';
import { DocumentTitle } from '../components/ui/page';
import { SsoSignIn } from '../features/auth/components/sso-sign-in';
import { LoginForm } from '../features/auth/forms/login-form';
import { loginRoute } from './login';

export function LoginPage() {
  const { redirect: target, method } = loginRoute.useSearch();
  const router = useRouter();
  return (
    <AuthLayout
      title="Sign in"
      subtitle="Welcome back. Sign in to manage your documentation."
      footer={
        <>
          No account yet?{' '}
          <Link to="/signup" search={{ redirect: target }}>
            Create one
          </Link>
        </>
      }
    >
      <DocumentTitle>Sign in</DocumentTitle>
      <LoginForm
        autoFocus={method !== 'sso'}
        onSignedIn={() => void router.navigate({ href: target ?? '/', replace: true })}
      />
      <p className="auth-divider">
        <span>or</span>
      </p>
      <SsoSignIn open={method === 'sso'} />
    </AuthLayout>
  );
}
