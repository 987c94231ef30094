import { createRoute } from '@tanstack/react-router';
import { PlainLayout } from '../components/layout/app-shell';
import { Card, DocumentTitle, PageHeader } from '../components/ui/page';
import { myInvitationsQueryOptions } from '../features/auth/api/get-invitations';
import { useUser } from '../features/auth/api/get-user';
import { PendingInvitations } from '../features/auth/components/pending-invitations';
import { appRoute } from './app';

/** `/account`: the signed-in person's account settings: their pending invitations. */
export const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/account',
  loader: ({ context }) => context.queryClient.prefetchQuery(myInvitationsQueryOptions()),
  component: AccountPage,
});

function AccountPage() {
  const user = useUser();
  return (
    <PlainLayout>
      <DocumentTitle>Account settings</DocumentTitle>
      <div className="account-page">
        <PageHeader
          title="Account settings"
          description={`Signed in as ${user.displayName}${user.email ? ` (${user.email})` : ''}.`}
        />
        <Card title="Invitations" id="account-invitations">
          <PendingInvitations />
        </Card>
      </div>
    </PlainLayout>
  );
}
