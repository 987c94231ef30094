import { createRoute, Link, redirect, useRouter } from '@tanstack/react-router';
import { AuthLayout } from '../components/layout/auth-layout';
import { DocumentTitle } from '../components/ui/page';
import { userQueryOptions } from '../features/auth/api/get-user';
import { LoginForm } from '../features/auth/forms/login-form';
import { rootRoute } from './root';
import { redirectSearchSchema } from './search';

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: redirectSearchSchema,
  // Already signed in (asked of the server, not the cache): go where the visitor was heading.
  beforeLoad: async ({ context, search }) => {
    const user = await context.queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 }).catch(() => null);
    if (user) throw redirect({ href: search.redirect ?? '/', replace: true });
  },
  component: LoginPage,
});

function LoginPage() {
  const { redirect: target } = loginRoute.useSearch();
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
      <LoginForm onSignedIn={() => void router.navigate({ href: target ?? '/', replace: true })} />
    </AuthLayout>
  );
}
