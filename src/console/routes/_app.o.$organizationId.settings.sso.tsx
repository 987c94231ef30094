import { samlProvidersQueryOptions } from '../features/sso/api/get-saml-providers';
import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { EnforceSso } from '../features/sso/components/enforce-sso';
import { SamlProviders } from '../features/sso/components/saml-providers';
import { createFileRoute } from '@tanstack/react-router';

/** `/o/$organizationId/settings/sso`: SAML single sign-on (admins): its providers, and whether it is enforced. */
export const Route = createFileRoute('/_app/o/$organizationId/settings/sso')({
  loader: ({ context, params }) => context.queryClient.prefetchQuery(samlProvidersQueryOptions(params.organizationId)),
  component: SsoPage,
});

function SsoPage() {
  const { organizationId } = Route.useParams();
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
