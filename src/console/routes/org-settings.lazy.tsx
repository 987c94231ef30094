import { Link, Outlet } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { PageHeader } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { orgSettingsRoute } from './org-settings';

export function OrgSettingsLayout() {
  const { organizationId } = orgSettingsRoute.useParams();
  const organization = useOrganization(organizationId);
  const params = { organizationId };
  const tab = (to: string, children: ReactNode) => ({ to, children });
  const { admin, listMembers, listTeams } = organization.permissions;
  // Guests list neither members nor translations (the server answers them 403): they see General only.
  const tabs = [
    tab('/o/$organizationId/settings/general', 'General'),
    listMembers && tab('/o/$organizationId/settings/members', 'Members'),
    listTeams && tab('/o/$organizationId/settings/teams', 'Teams'),
    admin && tab('/o/$organizationId/settings/invites', 'Invite links'),
    admin && tab('/o/$organizationId/settings/domains', 'E-mail domains'),
    admin && tab('/o/$organizationId/settings/sso', 'Single sign-on'),
    listMembers && tab('/o/$organizationId/settings/translations', 'Translations'),
  ].filter((entry) => entry !== false);
  return (
    <>
      <PageHeader title="People and settings" description={`Who is in ${organization.title} and how they sign in.`} />
      <nav className="tabs" aria-label="Organization settings">
        {tabs.map(({ to, children }) => (
          <Link key={to} to={to} params={params} className="tab" activeProps={{ className: 'active' }}>
            {children}
          </Link>
        ))}
      </nav>
      <Outlet />
    </>
  );
}
