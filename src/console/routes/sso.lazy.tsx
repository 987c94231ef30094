import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { EnforceSso } from '../features/sso/components/enforce-sso';
import { SamlProviders } from '../features/sso/components/saml-providers';
import { ssoRoute } from './sso';

export function SsoPage() {
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
