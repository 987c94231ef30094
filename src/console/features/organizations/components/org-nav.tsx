import { Link, useMatchRoute } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import {
  CodeIcon,
  PlugIcon,
  GlobeIcon,
  HomeIcon,
  SettingsIcon,
  TeamIcon,
  TrashIcon,
  UserIcon,
} from '../../../components/ui/icons';
import { useOrganization } from '../api/get-organization';
import '../organizations.css';

/** The organization's sections. */
export function OrganizationNav({ organizationId }: { organizationId: string }) {
  const organization = useOrganization(organizationId);
  const match = useMatchRoute();
  // Members and teams have their own entries; "Settings" is every other tab of the settings area.
  const inSettings = (
    [
      '/o/$organizationId/settings/general',
      '/o/$organizationId/settings/invites',
      '/o/$organizationId/settings/domains',
      '/o/$organizationId/settings/sso',
      '/o/$organizationId/settings/translations',
    ] as const
  ).some((to) => !!match({ to, params: { organizationId } }));
  return (
    <nav className="sidebar-nav" aria-label={`${organization.title} sections`}>
      <p className="sidebar-heading">
        {organization.urls.logo && <OrganizationLogo key={organization.urls.logo} src={organization.urls.logo} />}
        <span>{organization.title}</span>
      </p>
      <ul>
        <SectionLink organizationId={organizationId} to="/o/$organizationId" exact icon={<HomeIcon />}>
          Content
        </SectionLink>
        {/* Guests see no sites (the server answers them 403), nor API specs, integrations, members and teams. */}
        {organization.permissions.listMembers && (
          <SectionLink organizationId={organizationId} to="/o/$organizationId/sites" icon={<GlobeIcon />}>
            Sites
          </SectionLink>
        )}
        {organization.permissions.listMembers && (
          <SectionLink organizationId={organizationId} to="/o/$organizationId/openapi" icon={<CodeIcon />}>
            API specs
          </SectionLink>
        )}
        {organization.permissions.listIntegrations && (
          <SectionLink organizationId={organizationId} to="/o/$organizationId/integrations" icon={<PlugIcon />}>
            Integrations
          </SectionLink>
        )}
        <SectionLink organizationId={organizationId} to="/o/$organizationId/trash" icon={<TrashIcon />}>
          Trash
        </SectionLink>
        {organization.permissions.listMembers && (
          <SectionLink organizationId={organizationId} to="/o/$organizationId/settings/members" icon={<UserIcon />}>
            Members
          </SectionLink>
        )}
        {organization.permissions.listTeams && (
          <SectionLink organizationId={organizationId} to="/o/$organizationId/settings/teams" icon={<TeamIcon />}>
            Teams
          </SectionLink>
        )}
        <li>
          <Link
            to="/o/$organizationId/settings"
            params={{ organizationId }}
            className={inSettings ? 'sidebar-link active' : 'sidebar-link'}
            aria-current={inSettings ? 'page' : undefined}
            activeOptions={{ exact: true }}
          >
            <SettingsIcon /> Settings
          </Link>
        </li>
      </ul>
    </nav>
  );
}

type OrganizationSection =
  | '/o/$organizationId'
  | '/o/$organizationId/sites'
  | '/o/$organizationId/openapi'
  | '/o/$organizationId/integrations'
  | '/o/$organizationId/trash'
  | '/o/$organizationId/settings/members'
  | '/o/$organizationId/settings/teams';

/** One section of the sidebar, marked current while its screen (or, unless `exact`, one below it) is open. */
function SectionLink({
  organizationId,
  to,
  exact,
  icon,
  children,
}: {
  organizationId: string;
  to: OrganizationSection;
  exact?: boolean;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <li>
      <Link
        to={to}
        params={{ organizationId }}
        className="sidebar-link"
        activeOptions={exact ? { exact: true } : undefined}
        activeProps={{ className: 'active' }}
      >
        {icon} {children}
      </Link>
    </li>
  );
}

/** The organization's logo (an address its admins set); nothing when the image does not load. */
function OrganizationLogo({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return <img className="sidebar-logo" src={src} alt="" onError={() => setFailed(true)} />;
}
