import { createRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { emailDomainsQueryOptions } from '../features/email-domains/api/get-email-domains';
import { EmailDomains } from '../features/email-domains/components/email-domains';
import { useOrganization } from '../features/organizations/api/get-organization';
import { orgSettingsRoute } from './org-settings';

/** `/o/$organizationId/settings/domains`: e-mail domains and their verification (admins). */
export const emailDomainsRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'domains',
  loader: ({ context, params }) => context.queryClient.prefetchQuery(emailDomainsQueryOptions(params.organizationId)),
  component: EmailDomainsPage,
});

function EmailDomainsPage() {
  const { organizationId } = emailDomainsRoute.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`E-mail domains · ${organization.title}`}</DocumentTitle>
      <EmailDomains organizationId={organizationId} />
    </>
  );
}
