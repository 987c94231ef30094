import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { installedIntegrationListSchema } from '../../../../shared/contract';
import { Card } from '../../../components/ui/page';
import { ErrorState, Loading } from '../../../components/ui/states';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { IntegrationIcon } from './integration-icon';
import '../integrations.css';

/**
 * The integrations installed on a space or a site (`GET /v1/spaces/{spaceId}/integrations`,
 * `GET /v1/orgs/{organizationId}/sites/{siteId}/integrations`), each linking to its page, where admins change it.
 */
export function InstalledOn({
  organizationId,
  kind,
  id,
}: {
  organizationId: string;
  kind: 'space' | 'site';
  id: string;
}) {
  const installed = useQuery({
    queryKey: [...queryKeys.integrations.all, 'on', kind, id],
    queryFn: ({ signal }) =>
      api.get<typeof installedIntegrationListSchema>(
        kind === 'space'
          ? `/spaces/${encodeURIComponent(id)}/integrations`
          : `/orgs/${encodeURIComponent(organizationId)}/sites/${encodeURIComponent(id)}/integrations`,
        { signal },
      ),
  });
  return (
    <Card title="Integrations">
      {installed.isPending ? (
        <Loading label="Loading integrations…" />
      ) : installed.isError ? (
        <ErrorState error={installed.error} onRetry={() => void installed.refetch()} />
      ) : installed.data.items.length === 0 ? (
        <p className="section-text">
          No integration is installed on this {kind}.{' '}
          <Link to="/o/$organizationId/integrations" params={{ organizationId }}>
            Browse integrations
          </Link>
        </p>
      ) : (
        <ul className="target-list" aria-label={`Integrations installed on this ${kind}`}>
          {installed.data.items.map((integration) => (
            <li key={integration.name}>
              <Link
                className="installed-on-link"
                to="/o/$organizationId/integrations/$integrationName"
                params={{ organizationId, integrationName: integration.name }}
              >
                <IntegrationIcon integration={integration} size={24} /> {integration.title}
              </Link>
              <span className="team-meta">{integration.description}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
