import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { PlainLayout } from '../components/layout/app-shell';
import { Card, DocumentTitle, PageHeader } from '../components/ui/page';
import { sessionsQueryOptions } from '../features/account/api/get-sessions';
import { ssoLinksQueryOptions } from '../features/account/api/get-sso-links';
import { tokensQueryOptions } from '../features/account/api/get-tokens';
import { ApiTokens } from '../features/account/components/api-tokens';
import { Sessions } from '../features/account/components/sessions';
import { SsoLinks } from '../features/account/components/sso-links';
import { LinkProviderForm } from '../features/account/forms/link-provider-form';
import { PasswordForm } from '../features/account/forms/password-form';
import { EmailSettings } from '../features/account/forms/email-form';
import { NotificationSettingsForm } from '../features/notifications/forms/notification-settings-form';
import { ProfileForm } from '../features/account/forms/profile-form';
import { myInvitationsQueryOptions } from '../features/auth/api/get-invitations';
import { useUser } from '../features/auth/api/get-user';
import { PendingInvitations } from '../features/auth/components/pending-invitations';
import { useOrganizations } from '../features/organizations/api/get-organizations';
import { id, searchParams } from './-url';

/** `?linked=<providerId>`: where the server sends the browser back once a provider is linked. */
const accountSearch = searchParams<{ linked: string }>({ linked: id });

/**
 * `/account`: the signed-in person's profile (name, photo), password, API tokens, console sessions, invitations
 * and single sign-on identities.
 */
export const Route = createFileRoute('/_app/account')({
  validateSearch: accountSearch,
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.prefetchQuery(myInvitationsQueryOptions()),
      context.queryClient.prefetchQuery(ssoLinksQueryOptions()),
      context.queryClient.prefetchQuery(tokensQueryOptions()),
      context.queryClient.prefetchQuery(sessionsQueryOptions()),
    ]),
  component: AccountPage,
});

function AccountPage() {
  const { linked } = Route.useSearch();
  const user = useUser();
  const organizations = useOrganizations();
  const navigate = useNavigate({ from: Route.fullPath });
  return (
    <PlainLayout>
      <DocumentTitle>Account settings</DocumentTitle>
      <div className="account-page">
        <PageHeader
          title="Account settings"
          description={`Signed in as ${user.displayName}${user.email ? ` (${user.email})` : ''}.`}
        />
        <Card title="Profile" id="account-profile">
          <ProfileForm user={user} />
        </Card>
        <Card title="E-mail address" id="account-email">
          <EmailSettings user={user} />
        </Card>
        <Card title="Notifications" id="account-notifications">
          <p className="section-text">
            Every notification is in your inbox (the bell at the top). Choose which also reach you by e-mail, at once or
            in one daily digest.
          </p>
          <NotificationSettingsForm />
        </Card>
        <Card title="Password" id="account-password">
          <p className="section-text">
            Changing your password signs out your other sessions; this one stays signed in and your API tokens keep
            working.
          </p>
          <PasswordForm />
        </Card>
        <Card title="API tokens" id="account-tokens">
          <p className="section-text">
            Tokens act as you in the API, with your access to every organization. Revoke one as soon as it is no longer
            needed, or if it may have leaked.
          </p>
          <ApiTokens />
        </Card>
        <Card title="Sessions" id="account-sessions">
          <p className="section-text">Where your account is signed in to the console.</p>
          <Sessions />
        </Card>
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
