import { DocumentTitle } from '../components/ui/page';
import { EmailDomains } from '../features/email-domains/components/email-domains';
import { useOrganization } from '../features/organizations/api/get-organization';
import { emailDomainsRoute } from './email-domains';

export function EmailDomainsPage() {
  const { organizationId } = emailDomainsRoute.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`E-mail domains · ${organization.title}`}</DocumentTitle>
      <EmailDomains organizationId={organizationId} />
    </>
  );
}
