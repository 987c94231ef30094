import { emailDomainsQueryOptions } from '../features/email-domains/api/get-email-domains';
import { DocumentTitle } from '../components/ui/page';
import { EmailDomains } from '../features/email-domains/components/email-domains';
import { useOrganization } from '../features/organizations/api/get-organization';
import { createFileRoute } from '@tanstack/react-router';

/** `/o/$organizationId/settings/domains`: e-mail domains and their verification (admins). */
export const Route = createFileRoute('/_app/o/$organizationId/settings/domains')({
  loader: ({ context, params }) => context.queryClient.prefetchQuery(emailDomainsQueryOptions(params.organizationId)),
  component: EmailDomainsPage,
});

function EmailDomainsPage() {
  const { organizationId } = Route.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`E-mail domains · ${organization.title}`}</DocumentTitle>
      <EmailDomains organizationId={organizationId} />
    </>
  );
}
