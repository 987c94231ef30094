import { createRoute, Link, Outlet, redirect } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { PageHeader } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { organizationRoute } from './organization';

/**
 * `/o/$organizationId/settings`: the organization's people and settings, one tab each (general, members, teams,
 * invite links, e-mail domains, single sign-on, translations). The bare address opens "General", which everyone
 * in the organization may read; each other tab is listed only to those its screen serves (never a "No access").
 */
export const orgSettingsRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'settings',
  component: OrgSettingsLayout,
});

export const orgSettingsIndexRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: '/',
  // Members and teams have their own entries in the sidebar: "Settings" opens General, which guests read too.
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/o/$organizationId/settings/general', params, replace: true });
  },
});

function OrgSettingsLayout() {
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
