import { createRoute, Outlet, redirect, useNavigate, useParams } from '@tanstack/react-router';
import { AppShell, PlainLayout } from '../components/layout/app-shell';
import { userQueryOptions } from '../features/auth/api/get-user';
import { UserMenu } from '../features/auth/components/user-menu';
import { organizationsQueryOptions } from '../features/organizations/api/get-organizations';
import { OrganizationSwitcher } from '../features/organizations/components/org-switcher';
import { isApiError } from '../lib/api-client';
import { NotFoundState, rootRoute } from './root';

/** Every page that needs a signed-in user; without a session it sends the visitor to sign in, then back. */
export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    try {
      await context.queryClient.ensureQueryData(userQueryOptions());
    } catch (error) {
      if (isApiError(error, 401)) throw redirect({ to: '/login', search: { redirect: location.href } });
      throw error;
    }
  },
  loader: ({ context }) => context.queryClient.ensureQueryData(organizationsQueryOptions()),
  component: AppLayout,
});

function AppLayout() {
  const { organizationId } = useParams({ strict: false });
  const navigate = useNavigate();
  return (
    <AppShell
      switcher={<OrganizationSwitcher organizationId={organizationId} />}
      account={<UserMenu onSignedOut={() => navigate({ to: '/login' })} />}
    >
      <Outlet />
    </AppShell>
  );
}

/** Any other address of a signed-in user: "not found" inside the app's frame, with its menus. */
export const appNotFoundRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '$',
  component: () => (
    <PlainLayout>
      <NotFoundState />
    </PlainLayout>
  ),
});
