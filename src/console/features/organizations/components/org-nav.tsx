import { Link, useMatchRoute } from '@tanstack/react-router';
import { useState } from 'react';
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
        <li>
          <Link
            to="/o/$organizationId"
            params={{ organizationId }}
            className="sidebar-link"
            activeOptions={{ exact: true }}
            activeProps={{ className: 'active' }}
          >
            <HomeIcon /> Content
          </Link>
        </li>
        {/* Guests see no sites (the server answers them 403), nor API specs, integrations, members and teams. */}
        {organization.permissions.listMembers && (
          <li>
            <Link
              to="/o/$organizationId/sites"
              params={{ organizationId }}
              className="sidebar-link"
              activeProps={{ className: 'active' }}
            >
              <GlobeIcon /> Sites
            </Link>
          </li>
        )}
        {organization.permissions.listMembers && (
          <li>
            <Link
              to="/o/$organizationId/openapi"
              params={{ organizationId }}
              className="sidebar-link"
              activeProps={{ className: 'active' }}
            >
              <CodeIcon /> API specs
            </Link>
          </li>
        )}
        {organization.permissions.listIntegrations && (
          <li>
            <Link
              to="/o/$organizationId/integrations"
              params={{ organizationId }}
              className="sidebar-link"
              activeProps={{ className: 'active' }}
            >
              <PlugIcon /> Integrations
            </Link>
          </li>
        )}
        <li>
          <Link
            to="/o/$organizationId/trash"
            params={{ organizationId }}
            className="sidebar-link"
            activeProps={{ className: 'active' }}
          >
            <TrashIcon /> Trash
          </Link>
        </li>
        {organization.permissions.listMembers && (
          <li>
            <Link
              to="/o/$organizationId/settings/members"
              params={{ organizationId }}
              className="sidebar-link"
              activeProps={{ className: 'active' }}
            >
              <UserIcon /> Members
            </Link>
          </li>
        )}
        {organization.permissions.listTeams && (
          <li>
            <Link
              to="/o/$organizationId/settings/teams"
              params={{ organizationId }}
              className="sidebar-link"
              activeProps={{ className: 'active' }}
            >
              <TeamIcon /> Teams
            </Link>
          </li>
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

/** The organization's logo (an address its admins set); nothing when the image does not load. */
function OrganizationLogo({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return <img className="sidebar-logo" src={src} alt="" onError={() => setFailed(true)} />;
}
