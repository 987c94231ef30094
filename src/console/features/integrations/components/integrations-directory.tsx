import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { INTEGRATION_CATEGORIES, INTEGRATION_SEARCH_MAX, INTEGRATION_TARGETS } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useDirectory, useInstalled, type DirectoryFilters } from '../api/get-integrations';
import { CATEGORY_LABELS, TARGET_LABELS } from '../utils/labels';
import { IntegrationIcon } from './integration-icon';
import '../integrations.css';
import { UnverifiedBadge } from './unverified-badge';

interface Props {
  organizationId: string;
  filters: DirectoryFilters;
  onFiltersChange: (filters: DirectoryFilters) => void;
}

/** Integrations anyone may install, searchable by name and filtered by category and target; installed ones marked. */
export function IntegrationsDirectory({ organizationId, filters, onFiltersChange }: Props) {
  const id = useId();
  const [search, setSearch] = useState(filters.search ?? '');
  const settled = useDebouncedValue(search.trim(), 300);
  const effective = { ...filters, search: settled || undefined };
  const directory = useDirectory(effective);
  const installed = useInstalled(organizationId);
  const installedNames = new Set(installed.data?.map((i) => i.name) ?? []);
  const items = directory.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <PageHeader
        title="Integrations"
        description="Extend spaces and sites: analytics, Git sync, visitor sign-in and more. Publish your own with `gitbook publish`."
      />
      {installed.data && installed.data.length > 0 && (
        <section className="integration-section" aria-labelledby={`${id}-installed`}>
          <h2 id={`${id}-installed`} className="section-title">
            Installed on this organization
          </h2>
          <ul className="integration-grid" aria-label="Installed integrations">
            {installed.data.map((integration) => (
              <li key={integration.name}>
                <Card organizationId={organizationId} integration={integration} installed />
              </li>
            ))}
          </ul>
        </section>
      )}
      <form role="search" aria-label="Filter integrations" className="filters" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-search`}>
            Search
          </label>
          <input
            id={`${id}-search`}
            className="input"
            type="search"
            placeholder="Name or description"
            value={search}
            maxLength={INTEGRATION_SEARCH_MAX}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-category`}>
            Category
          </label>
          <select
            id={`${id}-category`}
            className="input select"
            value={filters.category ?? ''}
            onChange={(event) =>
              onFiltersChange({
                ...filters,
                category: (event.target.value || undefined) as DirectoryFilters['category'],
              })
            }
          >
            <option value="">All categories</option>
            {INTEGRATION_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-target`}>
            Works on
          </label>
          <select
            id={`${id}-target`}
            className="input select"
            value={filters.target ?? ''}
            onChange={(event) =>
              onFiltersChange({ ...filters, target: (event.target.value || undefined) as DirectoryFilters['target'] })
            }
          >
            <option value="">Anything</option>
            {INTEGRATION_TARGETS.filter((t) => t !== 'all').map((t) => (
              <option key={t} value={t}>
                {TARGET_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
      </form>
      {directory.isPending ? (
        <Loading label="Loading integrations…" />
      ) : directory.isError ? (
        <ErrorState error={directory.error} onRetry={() => void directory.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title="No integration found">
          {effective.search || filters.category || filters.target
            ? 'Try other words or filters.'
            : 'Integrations published on this server appear here.'}
        </EmptyState>
      ) : (
        <ul className="integration-grid" aria-label="Integrations">
          {items.map((integration) => (
            <li key={integration.name}>
              <Card
                organizationId={organizationId}
                integration={integration}
                installed={installedNames.has(integration.name)}
              />
            </li>
          ))}
        </ul>
      )}
      {directory.hasNextPage && (
        <Button disabled={directory.isFetchingNextPage} onClick={() => void directory.fetchNextPage()}>
          {directory.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </Button>
      )}
    </>
  );
}

function Card({
  organizationId,
  integration,
  installed,
}: {
  organizationId: string;
  integration: Parameters<typeof IntegrationIcon>[0]['integration'];
  installed: boolean;
}) {
  return (
    <Link
      className="integration-card"
      to="/o/$organizationId/integrations/$integrationName"
      params={{ organizationId, integrationName: integration.name }}
    >
      <IntegrationIcon integration={integration} />
      <span className="integration-card-text">
        <span className="integration-card-title">
          {integration.title}
          {installed && <span className="badge badge-public">Installed</span>}
          {integration.visibility === 'private' && <span className="badge">Private</span>}
          {!integration.verified && <UnverifiedBadge />}
        </span>
        <span className="team-meta">{integration.description}</span>
        <span className="team-meta">
          {integration.categories.map((c) => CATEGORY_LABELS[c]).join(', ') || 'Other'} · by {integration.owner.title}
        </span>
      </span>
    </Link>
  );
}
