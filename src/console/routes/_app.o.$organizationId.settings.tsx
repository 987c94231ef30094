import { createFileRoute, Link, Outlet, useLocation } from '@tanstack/react-router';
import { buttonClass } from '../components/ui/button';
import { KeyIcon } from '../components/ui/icons';
import { PageHeader } from '../components/ui/page';
import { EmptyState } from '../components/ui/states';
import { useOrganization } from '../features/organizations/api/get-organization';

/**
 * `/o/$organizationId/settings`: the organization's people and settings, one tab each (general, members, teams,
 * invite links, e-mail domains, single sign-on, translations). The bare address opens "General", which everyone
 * in the organization may read; each other tab is listed only to those its screen serves (never a "No access").
 */
export const Route = createFileRoute('/_app/o/$organizationId/settings')({
  component: OrgSettingsLayout,
});

function OrgSettingsLayout() {
  const { organizationId } = Route.useParams();
  const organization = useOrganization(organizationId);
  const pathname = useLocation({ select: (location) => location.pathname });
  const params = { organizationId };
  const { admin, listMembers, listTeams } = organization.permissions;
  // Guests list neither members nor translations (the server answers them 403): they see General only.
  const tabs: { to: string; label: string; allowed: boolean; for: string }[] = [
    { to: '/o/$organizationId/settings/general', label: 'General', allowed: true, for: '' },
    { to: '/o/$organizationId/settings/members', label: 'Members', allowed: listMembers, for: 'members' },
    { to: '/o/$organizationId/settings/teams', label: 'Teams', allowed: listTeams, for: 'members' },
    { to: '/o/$organizationId/settings/invites', label: 'Invite links', allowed: admin, for: 'admins' },
    { to: '/o/$organizationId/settings/domains', label: 'E-mail domains', allowed: admin, for: 'admins' },
    { to: '/o/$organizationId/settings/sso', label: 'Single sign-on', allowed: admin, for: 'admins' },
    { to: '/o/$organizationId/settings/translations', label: 'Translations', allowed: listMembers, for: 'members' },
  ];
  // A tab reached by its address that is not for this person says whom it is for, instead of "No access".
  const here = tabs.find(({ to }) => pathname.startsWith(to.replace('$organizationId', organizationId)));
  return (
    <>
      <PageHeader title="People and settings" description={`Who is in ${organization.title} and how they sign in.`} />
      <nav className="tabs" aria-label="Organization settings">
        {tabs
          .filter(({ allowed }) => allowed)
          .map(({ to, label }) => (
            <Link key={to} to={to} params={params} className="tab" activeProps={{ className: 'active' }}>
              {label}
            </Link>
          ))}
      </nav>
      {here && !here.allowed ? (
        <EmptyState
          icon={<KeyIcon width={24} height={24} />}
          title={`${here.label} is for ${organization.title}’s ${here.for}`}
          action={
            <Link to="/o/$organizationId" params={params} className={buttonClass('secondary')}>
              Go to the organization’s content
            </Link>
          }
        >
          {admin || listMembers
            ? 'Your role in the organization does not include it. An admin can change your role.'
            : 'You are a guest of the organization: you see the spaces and collections shared with you.'}
        </EmptyState>
      ) : (
        <Outlet />
      )}
    </>
  );
}
