import { Link } from '@tanstack/react-router';
import { GlobeIcon, HomeIcon, TrashIcon } from '../../../components/ui/icons';
import { useOrganization } from '../api/get-organization';

/** The organization's sections. */
export function OrganizationNav({ organizationId }: { organizationId: string }) {
  const organization = useOrganization(organizationId);
  return (
    <nav className="sidebar-nav" aria-label={`${organization.title} sections`}>
      <p className="sidebar-heading">{organization.title}</p>
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
      </ul>
    </nav>
  );
}
