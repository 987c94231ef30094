import { createRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { idSchema } from '../../shared/contract';
import { PlainLayout } from '../components/layout/app-shell';
import { Card, DocumentTitle, PageHeader } from '../components/ui/page';
import { ssoLinksQueryOptions } from '../features/account/api/get-sso-links';
import { SsoLinks } from '../features/account/components/sso-links';
import { LinkProviderForm } from '../features/account/forms/link-provider-form';
import { myInvitationsQueryOptions } from '../features/auth/api/get-invitations';
import { useUser } from '../features/auth/api/get-user';
import { PendingInvitations } from '../features/auth/components/pending-invitations';
import { useOrganizations } from '../features/organizations/api/get-organizations';
import { appRoute } from './app';

/** `?linked=<providerId>`: where the server sends the browser back once a provider is linked. */
const accountSearchSchema = z.object({ linked: idSchema.optional().catch(undefined) });

/** `/account`: the signed-in person's invitations and single sign-on identities. */
export const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/account',
  validateSearch: accountSearchSchema,
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.prefetchQuery(myInvitationsQueryOptions()),
      context.queryClient.prefetchQuery(ssoLinksQueryOptions()),
    ]),
  component: AccountPage,
});

function AccountPage() {
  const { linked } = accountRoute.useSearch();
  const user = useUser();
  const organizations = useOrganizations();
  const navigate = useNavigate({ from: accountRoute.fullPath });
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
        <Card title="Single sign-on" id="account-sso">
          <p className="section-text">
            Identity providers of your organizations that sign you in to this account. An organization that enforces
            single sign-on lets its members other than admins in only through one of its own providers.
          </p>
          <SsoLinks
            linked={linked}
            onDismissLinked={() => void navigate({ search: { linked: undefined }, replace: true })}
          />
          <h3 className="card-subtitle">Link a provider</h3>
          <LinkProviderForm organizations={organizations.map(({ id, title }) => ({ id, title }))} />
        </Card>
      </div>
    </PlainLayout>
  );
}
