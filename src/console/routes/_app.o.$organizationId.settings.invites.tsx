import { createFileRoute, Link } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { InviteLinks } from '../features/members/components/invite-links';
import { useOrganization } from '../features/organizations/api/get-organization';

/** `/o/$organizationId/settings/invites`: the organization's invite links. */
export const Route = createFileRoute('/_app/o/$organizationId/settings/invites')({
  component: InvitesPage,
});

function InvitesPage() {
  const { organizationId } = Route.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`Invite links · ${organization.title}`}</DocumentTitle>
      <p className="section-text">
        Anyone with a link can join {organization.title} with the link's role: new people create an account on the way,
        people with an account sign in. Delete a link to stop it working.
      </p>
      {!organization.inviteLinks && (
        <p className="notice notice-warning" role="status">
          Invite links are turned off: none of these links lets anyone join, and no new one can be made. Turn them on in{' '}
          <Link to="/o/$organizationId/settings/general" params={{ organizationId }}>
            General settings
          </Link>
          .
        </p>
      )}
      <InviteLinks
        organizationId={organizationId}
        canManage={organization.permissions.admin}
        canCreate={organization.permissions.admin && organization.inviteLinks}
      />
    </>
  );
}
