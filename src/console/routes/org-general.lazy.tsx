import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { DeleteOrganization } from '../features/organizations/components/delete-organization';
import { OrganizationSettingsForm } from '../features/organizations/forms/organization-settings-form';
import { orgGeneralRoute } from './org-general';

export function OrgGeneralPage() {
  const { organizationId } = orgGeneralRoute.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`General settings · ${organization.title}`}</DocumentTitle>
      <section className="card">
        {/* A form of its own per organization: switching organizations keeps this page open. */}
        <OrganizationSettingsForm key={organization.id} organization={organization} />
      </section>
      {organization.permissions.admin && <DeleteOrganization organization={organization} />}
    </>
  );
}
