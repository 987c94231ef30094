import { createFileRoute, Outlet, redirect, useNavigate, useParams } from '@tanstack/react-router';
import { AppShell } from '../components/layout/app-shell';
import { myInvitationsQueryOptions } from '../features/auth/api/get-invitations';
import { userQueryOptions } from '../features/auth/api/get-user';
import { UserMenu } from '../features/auth/components/user-menu';
import { InboxButton } from '../features/notifications/components/inbox-button';
import { organizationsQueryOptions } from '../features/organizations/api/get-organizations';
import { OrganizationSwitcher } from '../features/organizations/components/org-switcher';
import { isApiError } from '../lib/api-client';

/**
 * Every page that needs a signed-in user; without a session it sends the visitor to sign in, then back. The user,
 * their organizations and invitations load at once, and beside the loaders of the screen itself (a loader, not a
 * beforeLoad, which every loader below would wait for): a screen opens after one round trip, not two. Signed out,
 * the screen's own requests fail too, and the redirect wins over their errors.
 */
export const Route = createFileRoute('/_app')({
  loader: async ({ context, location }) => {
    void context.queryClient.prefetchQuery(myInvitationsQueryOptions());
    try {
      await Promise.all([
        context.queryClient.ensureQueryData(userQueryOptions()),
        context.queryClient.ensureQueryData(organizationsQueryOptions()),
      ]);
    } catch (error) {
      if (isApiError(error, 401)) throw redirect({ to: '/login', search: { redirect: location.href } });
      throw error;
    }
  },
  component: AppLayout,
});

function AppLayout() {
  const { organizationId } = useParams({ strict: false });
  const navigate = useNavigate();
  return (
    <AppShell
      switcher={<OrganizationSwitcher organizationId={organizationId} />}
      notifications={<InboxButton />}
      account={<UserMenu onSignedOut={() => navigate({ to: '/login' })} />}
    >
      <Outlet />
    </AppShell>
  );
}
