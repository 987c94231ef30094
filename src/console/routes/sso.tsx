import { createRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { samlProvidersQueryOptions } from '../features/sso/api/get-saml-providers';
import { EnforceSso } from '../features/sso/components/enforce-sso';
import { SamlProviders } from '../features/sso/components/saml-providers';
import { orgSettingsRoute } from './org-settings';

/** `/o/$organizationId/settings/sso`: SAML single sign-on (admins): its providers, and whether it is enforced. */
export const ssoRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'sso',
  loader: ({ context, params }) => context.queryClient.prefetchQuery(samlProvidersQueryOptions(params.organizationId)),
  component: SsoPage,
});

function SsoPage() {
  const { organizationId } = ssoRoute.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`Single sign-on · ${organization.title}`}</DocumentTitle>
      <SamlProviders organizationId={organizationId} />
      <EnforceSso
        organizationId={organizationId}
        organizationTitle={organization.title}
        enforced={organization.sso ?? false}
      />
    </>
  );
}
