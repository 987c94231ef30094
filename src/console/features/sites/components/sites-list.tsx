import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { SITE_TITLE_MAX } from '../../../../shared/contract';
import type { Site, Space } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ExternalIcon, GlobeIcon, PlusIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { useSites, type SiteFilters } from '../api/get-sites';
import { CreateSiteDialog } from '../forms/create-site-dialog';
import { plural, SITE_VISIBILITY_LABELS, SPACE_UNTITLED } from '../utils/labels';
import '../sites.css';

const SEARCH_DELAY_MS = 300;

interface Props {
  organizationId: string;
  /** From the URL: they survive a reload and can be shared. */
  filters: SiteFilters;
  onFiltersChange: (filters: SiteFilters) => void;
  /** The organization's spaces: the space filter and the spaces of a new site. */
  spaces: Space[];
  canCreate: boolean;
  /** Opens a site (after creating it). */
  onOpenSite: (siteId: string) => void;
}

/** The organization's docs sites, filtered by title, publication and space. */
export function SitesList({ organizationId, filters, onFiltersChange, spaces, canCreate, onOpenSite }: Props) {
  const [creating, setCreating] = useState(false);
  const createButton = useRef<HTMLButtonElement>(null);
  // Focus comes back to the header's button: the empty state's one is gone once a site exists.
  const newSite = (label: ReactNode, returnsFocus = false) =>
    canCreate && (
      <Button variant="primary" ref={returnsFocus ? createButton : undefined} onClick={() => setCreating(true)}>
        <PlusIcon /> {label}
      </Button>
    );
  return (
    <>
      <PageHeader
        title="Sites"
        description="Docs sites publish spaces for readers: sections, share links, adaptive content."
        actions={newSite('New site', true)}
      />
      <Filters filters={filters} onChange={onFiltersChange} spaces={spaces} />
      <Results
        organizationId={organizationId}
        filters={filters}
        onClear={() => onFiltersChange({})}
        createAction={newSite('Create a site')}
      />
      <CreateSiteDialog
        organizationId={organizationId}
        spaces={spaces}
        open={creating}
        onOpenChange={setCreating}
        returnFocusRef={createButton}
        onCreated={onOpenSite}
      />
    </>
  );
}

function Filters({
  filters,
  onChange,
  spaces,
}: {
  filters: SiteFilters;
  onChange: (filters: SiteFilters) => void;
  spaces: Space[];
}) {
  const id = useId();
  // The title is typed here and reaches the URL (and the server) once typing pauses.
  const [title, setTitle] = useState(filters.title ?? '');
  const [shown, setShown] = useState(filters.title);
  if (shown !== filters.title) {
    setShown(filters.title);
    setTitle(filters.title ?? '');
  }
  const latest = useRef({ filters, onChange });
  useEffect(() => {
    latest.current = { filters, onChange };
  });
  useEffect(() => {
    const wanted = title.trim() || undefined;
    if (wanted === latest.current.filters.title) return;
    const timer = setTimeout(
      () => latest.current.onChange({ ...latest.current.filters, title: wanted }),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [title]);
  const published = filters.published === undefined ? '' : filters.published ? 'true' : 'false';
  return (
    <form role="search" aria-label="Filter sites" className="filters" onSubmit={(event) => event.preventDefault()}>
      <div className="field">
        <div className="field-top">
          <label className="field-label" htmlFor={`${id}-title`}>
            Title
          </label>
        </div>
        <input
          id={`${id}-title`}
          className="input"
          type="search"
          placeholder="Search by title"
          value={title}
          maxLength={SITE_TITLE_MAX}
          onChange={(event) => setTitle(event.target.value)}
        />
      </div>
      <div className="field">
        <div className="field-top">
          <label className="field-label" htmlFor={`${id}-published`}>
            Status
          </label>
        </div>
        <select
          id={`${id}-published`}
          className="input select"
          value={published}
          onChange={(event) =>
            onChange({
              ...filters,
              published: event.target.value === '' ? undefined : event.target.value === 'true',
            })
          }
        >
          <option value="">Published or not</option>
          <option value="true">Published</option>
          <option value="false">Not published</option>
        </select>
      </div>
      <div className="field">
        <div className="field-top">
          <label className="field-label" htmlFor={`${id}-space`}>
            Space
          </label>
        </div>
        <select
          id={`${id}-space`}
          className="input select"
          value={filters.space ?? ''}
          onChange={(event) => onChange({ ...filters, space: event.target.value || undefined })}
        >
          <option value="">Any space</option>
          {filters.space && !spaces.some((space) => space.id === filters.space) && (
            <option value={filters.space}>A space you cannot see</option>
          )}
          {spaces.map((space) => (
            <option key={space.id} value={space.id}>
              {space.title || SPACE_UNTITLED}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}

function Results({
  organizationId,
  filters,
  onClear,
  createAction,
}: {
  organizationId: string;
  filters: SiteFilters;
  onClear: () => void;
  createAction: ReactNode;
}) {
  const query = useSites(organizationId, filters);
  if (query.isPending) return <Loading label="Loading sites…" />;
  if (query.isError && !query.data) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const items = query.data.pages.flatMap((page) => page.items);
  const count = query.data.pages[0]?.count ?? items.length;
  const filtered = filters.title !== undefined || filters.published !== undefined || filters.space !== undefined;
  if (items.length === 0) {
    return filtered ? (
      <EmptyState
        icon={<GlobeIcon width={28} height={28} />}
        title="No sites match"
        action={<Button onClick={onClear}>Clear the filters</Button>}
      >
        Try another title, status or space.
      </EmptyState>
    ) : (
      <EmptyState icon={<GlobeIcon width={28} height={28} />} title="No sites yet" action={createAction}>
        A site publishes spaces of this organization for readers, at an address of this server.
      </EmptyState>
    );
  }
  return (
    <section className="section" aria-labelledby="sites-found" aria-busy={query.isFetching || undefined}>
      <p id="sites-found" className="section-count" role="status">
        {plural(count, 'site')}
        {filtered ? ' match' : ''}
      </p>
      <div className="panel">
        <ul className="site-list" aria-label="Sites">
          {items.map((site) => (
            <SiteItem key={site.id} organizationId={organizationId} site={site} />
          ))}
        </ul>
      </div>
      {query.hasNextPage && (
        <div className="list-more">
          <Button loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            Show more
          </Button>
        </div>
      )}
    </section>
  );
}

function SiteItem({ organizationId, site }: { organizationId: string; site: Site }) {
  return (
    <li className="site-item">
      <span className="tree-icon" aria-hidden="true">
        <GlobeIcon />
      </span>
      <div className="site-item-text">
        <Link
          to="/o/$organizationId/sites/$siteId/structure"
          params={{ organizationId, siteId: site.id }}
          className="site-item-title"
        >
          {site.title}
        </Link>
        <span className="site-item-meta">
          {plural(site.siteSpaces, 'space')} · created {new Date(site.createdAt).toLocaleDateString()}
        </span>
      </div>
      <span className="site-item-badges">
        <span className={`badge badge-${site.visibility}`}>{SITE_VISIBILITY_LABELS[site.visibility].short}</span>
        {site.published ? (
          <span className="badge badge-published">Published</span>
        ) : (
          <span className="badge">Not published</span>
        )}
      </span>
      {site.urls.published ? (
        <a
          className="btn btn-ghost btn-sm"
          href={site.urls.published}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`Open the live site ${site.title} (new tab)`}
        >
          <ExternalIcon /> Live site
        </a>
      ) : (
        <span className="site-item-spacer" aria-hidden="true" />
      )}
    </li>
  );
}
