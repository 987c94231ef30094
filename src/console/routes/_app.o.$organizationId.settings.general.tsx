import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { DeleteOrganization } from '../features/organizations/components/delete-organization';
import { OrganizationSettingsForm } from '../features/organizations/forms/organization-settings-form';

/**
 * `/o/$organizationId/settings/general`: name, logo, default role, invite links on or off, and deleting the
 * organization (admins; everyone else reads the settings).
 */
export const Route = createFileRoute('/_app/o/$organizationId/settings/general')({
  component: OrgGeneralPage,
});

function OrgGeneralPage() {
  const { organizationId } = Route.useParams();
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
