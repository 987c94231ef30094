import { createFileRoute, Link, redirect, useRouter } from '@tanstack/react-router';
import { AuthLayout } from '../components/layout/auth-layout';
import { DocumentTitle } from '../components/ui/page';
import { userQueryOptions } from '../features/auth/api/get-user';
import { SignupForm } from '../features/auth/forms/signup-form';
import { redirectSearch } from './-url';

export const Route = createFileRoute('/signup')({
  validateSearch: redirectSearch,
  beforeLoad: async ({ context, search }) => {
    const user = await context.queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 }).catch(() => null);
    if (user) throw redirect({ href: search.redirect ?? '/', replace: true });
  },
  component: SignupPage,
});

function SignupPage() {
  const { redirect: target } = Route.useSearch();
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
