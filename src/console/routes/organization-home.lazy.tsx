import { DocumentTitle } from '../components/ui/page';
import { OrganizationContent } from '../features/content/components/organization-content';
import { useOrganization } from '../features/organizations/api/get-organization';
import { organizationHomeRoute } from './organization-home';

export function OrganizationHome() {
  const { organizationId } = organizationHomeRoute.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{organization.title}</DocumentTitle>
      <OrganizationContent organizationId={organizationId} canCreate={organization.permissions.createContent} />
    </>
  );
}
