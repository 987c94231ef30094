import { createFileRoute, Link, redirect, useRouter } from '@tanstack/react-router';
import { AuthLayout } from '../components/layout/auth-layout';
import { DocumentTitle } from '../components/ui/page';
import { userQueryOptions } from '../features/auth/api/get-user';
import { SsoSignIn } from '../features/auth/components/sso-sign-in';
import { LoginForm } from '../features/auth/forms/login-form';
import { consolePath, oneOf, searchParams } from './-url';

/**
 * `?method=sso`: "Sign in with SSO" is open (a sign-in link an administrator can share); the person's e-mail
 * address then finds their organization's identity providers.
 */
const loginSearch = searchParams<{ redirect: string; method: 'sso' }>({
  redirect: consolePath,
  method: oneOf(['sso'] as const),
});

export const Route = createFileRoute('/login')({
  validateSearch: loginSearch,
  // Already signed in (asked of the server, not the cache): go where the visitor was heading.
  beforeLoad: async ({ context, search }) => {
    const user = await context.queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 }).catch(() => null);
    if (user) throw redirect({ href: search.redirect ?? '/', replace: true });
  },
  component: LoginPage,
});

function LoginPage() {
  const { redirect: target, method } = Route.useSearch();
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
      <p className="auth-forgot">
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
      <p className="auth-divider">
        <span>or</span>
      </p>
      <SsoSignIn open={method === 'sso'} />
    </AuthLayout>
  );
}
