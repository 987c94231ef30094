import { useId, useRef, useState } from 'react';
import type { OpenApiComparison, OpenApiSpec, OpenApiVersion } from '../../../../shared/contract';
import { ApiOperation } from '../../../components/openapi/api-operation';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EditIcon, RefreshIcon, TrashIcon } from '../../../components/ui/icons';
import { Card, PageHeader } from '../../../components/ui/page';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { Switch } from '../../../components/ui/switch';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { fullTime } from '../../../lib/time';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useDeleteSpec } from '../api/delete-spec';
import { useComparison } from '../api/get-comparison';
import { useReference } from '../api/get-reference';
import { useSpec } from '../api/get-spec';
import { useVersions } from '../api/get-versions';
import { useUpdateSpec } from '../api/save-spec';
import { useSetVisibility } from '../api/set-visibility';
import { SpecSourceDialog } from '../forms/spec-source-dialog';
import { SpecState } from './spec-state';
import '../openapi.css';
import '../../../components/openapi/openapi.css';

export interface SpecViewState {
  tab?: 'reference' | 'compare';
  version?: string;
  from?: string;
  to?: string;
}

interface Props {
  organizationId: string;
  slug: string;
  state: SpecViewState;
  onStateChange: (state: SpecViewState) => void;
  onDeleted: () => void;
}

/** One specification: its processing, source and versions, a version's reference, and two versions compared. */
export function SpecView({ organizationId, slug, state, onStateChange, onDeleted }: Props) {
  const spec = useSpec(organizationId, slug);
  const versions = useVersions(organizationId, slug, spec.data?.lastVersion);
  if (spec.isPending) return <Loading label="Loading the specification…" />;
  if (spec.isError) return <ErrorState error={spec.error} onRetry={() => void spec.refetch()} />;
  const tab = state.tab ?? 'reference';
  const list = versions.data ?? [];
  return (
    <>
      <PageHeader
        title={spec.data.slug}
        description={spec.data.sourceURL ?? 'Uploaded text'}
        actions={<SpecActions organizationId={organizationId} spec={spec.data} onDeleted={onDeleted} />}
      />
      <Status spec={spec.data} />
      <Card title="Versions">
        {versions.isPending ? (
          <Loading label="Loading versions…" />
        ) : versions.isError ? (
          <ErrorState error={versions.error} onRetry={() => void versions.refetch()} />
        ) : list.length === 0 ? (
          <p className="section-text">No version yet: one is kept each time a processing finds new content.</p>
        ) : (
          <VersionList
            versions={list}
            latest={spec.data.lastVersion}
            selected={state.version ?? spec.data.lastVersion}
            onSelect={(version) => onStateChange({ ...state, tab: 'reference', version })}
          />
        )}
      </Card>
      {list.length > 0 && (
        <>
          <div className="subtabs" role="tablist" aria-label="Version views">
            {(['reference', 'compare'] as const).map((t) => (
              <button
                key={t}
                type="button"
                role="tab"
                aria-selected={tab === t}
                className={`subtab${tab === t ? ' active' : ''}`}
                onClick={() => onStateChange({ ...state, tab: t })}
              >
                {t === 'reference' ? 'Reference' : 'Compare versions'}
              </button>
            ))}
          </div>
          {tab === 'reference' ? (
            <Reference
              organizationId={organizationId}
              slug={slug}
              versionId={state.version ?? spec.data.lastVersion ?? list[0]!.id}
            />
          ) : (
            <Compare
              organizationId={organizationId}
              slug={slug}
              versions={list}
              from={state.from ?? list[1]?.id}
              to={state.to ?? list[0]!.id}
              onChange={(from, to) => onStateChange({ ...state, tab: 'compare', from, to })}
            />
          )}
        </>
      )}
    </>
  );
}

function Status({ spec }: { spec: OpenApiSpec }) {
  return (
    <div className="spec-status">
      <p>
        <SpecState spec={spec} />{' '}
        {spec.lastProcessedAt ? (
          <>
            Last processed <RelativeTime value={spec.lastProcessedAt} />
          </>
        ) : (
          'Not processed yet'
        )}
      </p>
      {spec.lastProcessedErrors && spec.lastProcessedErrors.length > 0 && (
        <div className="notice notice-danger" role="alert">
          <p>
            The last processing failed
            {spec.lastVersion ? '; pages still show the last version that was processed' : ''}:
          </p>
          <ul>
            {spec.lastProcessedErrors.map((error, i) => (
              <li key={i}>{error.message}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function SpecActions({
  organizationId,
  spec,
  onDeleted,
}: {
  organizationId: string;
  spec: OpenApiSpec;
  onDeleted: () => void;
}) {
  const [dialog, setDialog] = useState<'source' | 'delete' | null>(null);
  const sourceButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const update = useUpdateSpec(organizationId, spec.slug);
  const visibility = useSetVisibility(organizationId, spec.slug);
  const remove = useDeleteSpec(organizationId);
  const toast = useToast();
  const publicId = useId();
  if (!spec.permissions.edit) return null;
  return (
    <div className="page-actions">
      <span className="switch-field">
        <Switch
          aria-labelledby={publicId}
          checked={spec.visibility === 'public'}
          busy={visibility.isPending}
          onCheckedChange={(checked) =>
            visibility.mutate(checked ? 'public' : 'private', {
              onError: (error) => toast.show(error.message, 'error'),
            })
          }
        />
        <span id={publicId}>Public</span>
      </span>
      {spec.sourceURL && (
        <Button
          disabled={update.isPending || spec.processingState !== 'complete'}
          onClick={() =>
            update.mutate(
              { url: spec.sourceURL! },
              {
                onSuccess: () => toast.show(`Fetching ${spec.sourceURL} again…`),
                onError: (error) => toast.show(error.message, 'error'),
              },
            )
          }
        >
          <RefreshIcon /> Process again
        </Button>
      )}
      <Button ref={sourceButton} onClick={() => setDialog('source')}>
        <EditIcon /> Update source
      </Button>
      <Button ref={deleteButton} variant="danger" onClick={() => setDialog('delete')}>
        <TrashIcon /> Delete
      </Button>
      <SpecSourceDialog
        organizationId={organizationId}
        spec={spec}
        open={dialog === 'source'}
        onOpenChange={(open) => setDialog(open ? 'source' : null)}
        returnFocusRef={sourceButton}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={(open) => setDialog(open ? 'delete' : null)}
        returnFocusRef={deleteButton}
        title={`Delete “${spec.slug}”?`}
        confirmLabel="Delete specification"
        action={async () => {
          await remove.mutateAsync(spec.slug);
          toast.show(`“${spec.slug}” deleted`);
          onDeleted();
        }}
      >
        <p>
          The specification and all its versions are deleted. Pages that show its operations will say they are not
          available.
        </p>
      </ConfirmDialog>
    </div>
  );
}

function VersionList({
  versions,
  latest,
  selected,
  onSelect,
}: {
  versions: OpenApiVersion[];
  latest?: string;
  selected?: string;
  onSelect: (id: string) => void;
}) {
  return (
    <ol className="version-list" aria-label="Versions, newest first">
      {versions.map((version, i) => (
        <li key={version.id} className={version.id === selected ? 'selected' : undefined}>
          <span className="version-name">Version {versions.length - i}</span>
          {version.id === latest && <span className="badge badge-public">Latest</span>}
          <span className="team-meta" title={version.createdAt ? fullTime(version.createdAt) : undefined}>
            {version.createdAt && <RelativeTime value={version.createdAt} />}
          </span>
          <Button
            size="sm"
            aria-pressed={version.id === selected}
            aria-label={`Show the reference of version ${versions.length - i}`}
            onClick={() => onSelect(version.id)}
          >
            Reference
          </Button>
          <a className="version-raw" href={version.url} target="_blank" rel="noreferrer">
            Source
          </a>
        </li>
      ))}
    </ol>
  );
}

function Reference({ organizationId, slug, versionId }: { organizationId: string; slug: string; versionId: string }) {
  const [filter, setFilter] = useState('');
  const deferred = useDebouncedValue(filter.trim(), 250);
  const reference = useReference(organizationId, slug, versionId, deferred);
  const id = useId();
  const first = reference.data?.pages[0];
  // The header stays while a new filter loads.
  const [shownHead, setShownHead] = useState(first);
  if (first && first !== shownHead) setShownHead(first);
  const head = first ?? shownHead;
  if (!head) {
    if (reference.isError) return <ErrorState error={reference.error} onRetry={() => void reference.refetch()} />;
    return <Loading label="Reading the specification…" />;
  }
  const operations = reference.data?.pages.flatMap((p) => p.operations) ?? [];
  return (
    <section className="api-reference" aria-labelledby={`${id}-title`}>
      <header className="api-reference-head">
        <h2 id={`${id}-title`}>
          {head.title} <span className="team-meta">{head.version}</span>
        </h2>
        <p className="team-meta">
          {head.specification} · {head.total.toLocaleString()} operation{head.total === 1 ? '' : 's'}
        </p>
        {head.description && <p className="api-description">{head.description}</p>}
      </header>
      {head.total > 5 && (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-filter`}>
            Find an operation
          </label>
          <input
            id={`${id}-filter`}
            className="input"
            type="search"
            placeholder="Method, path or summary"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
        </div>
      )}
      {reference.isError ? (
        <ErrorState error={reference.error} onRetry={() => void reference.refetch()} />
      ) : !first ? (
        <Loading label="Finding operations…" />
      ) : operations.length === 0 ? (
        <EmptyState title={head.total ? 'No operation matches' : 'No operation'}>
          {head.total ? 'Try another method, path or word.' : 'This specification describes no path.'}
        </EmptyState>
      ) : (
        operations.map((operation) => (
          <ApiOperation key={`${operation.method} ${operation.path}`} operation={operation} />
        ))
      )}
      {reference.hasNextPage && (
        <Button disabled={reference.isFetchingNextPage} onClick={() => void reference.fetchNextPage()}>
          {reference.isFetchingNextPage
            ? 'Loading…'
            : `Show more (${(first!.count - operations.length).toLocaleString()} left)`}
        </Button>
      )}
    </section>
  );
}

function Compare({
  organizationId,
  slug,
  versions,
  from,
  to,
  onChange,
}: {
  organizationId: string;
  slug: string;
  versions: OpenApiVersion[];
  from?: string;
  to: string;
  onChange: (from: string | undefined, to: string) => void;
}) {
  const id = useId();
  const comparison = useComparison(organizationId, slug, from, to);
  const label = (v: OpenApiVersion, i: number) =>
    `Version ${versions.length - i}${v.createdAt ? ` (${fullTime(v.createdAt)})` : ''}`;
  if (versions.length < 2) {
    return (
      <EmptyState title="Only one version">Versions can be compared once the specification has changed.</EmptyState>
    );
  }
  return (
    <section className="api-compare" aria-label="Compare versions">
      <div className="filters">
        {(['from', 'to'] as const).map((which) => (
          <div className="field" key={which}>
            <label className="field-label" htmlFor={`${id}-${which}`}>
              {which === 'from' ? 'From' : 'To'}
            </label>
            <select
              id={`${id}-${which}`}
              className="input select"
              value={(which === 'from' ? from : to) ?? ''}
              onChange={(event) =>
                which === 'from' ? onChange(event.target.value, to) : onChange(from, event.target.value)
              }
            >
              {versions.map((v, i) => (
                <option key={v.id} value={v.id}>
                  {label(v, i)}
                </option>
              ))}
            </select>
          </div>
        ))}
      </div>
      {from === to ? (
        <p className="section-text">Choose two different versions.</p>
      ) : comparison.isPending ? (
        <Loading label="Comparing…" />
      ) : comparison.isError ? (
        <ErrorState error={comparison.error} onRetry={() => void comparison.refetch()} />
      ) : (
        <ComparisonResult comparison={comparison.data} />
      )}
    </section>
  );
}

function ComparisonResult({ comparison }: { comparison: OpenApiComparison }) {
  const { added, removed, changed, breaking } = comparison;
  if (!added.length && !removed.length && !changed.length) {
    return <EmptyState title="No difference">Both versions describe the same operations.</EmptyState>;
  }
  const op = (o: { method: string; path: string; summary?: string }) => (
    <>
      <span className={`api-method api-${o.method}`}>{o.method.toUpperCase()}</span> <code>{o.path}</code>
      {o.summary && <span className="team-meta"> {o.summary}</span>}
    </>
  );
  return (
    <div className="comparison">
      <p className={breaking ? 'notice notice-danger' : 'notice notice-info'} role="status">
        {breaking
          ? `${breaking} breaking change${breaking === 1 ? '' : 's'}: clients of the older version may fail.`
          : 'No breaking change.'}{' '}
        {added.length} added, {removed.length} removed, {changed.length} changed.
      </p>
      {removed.length > 0 && (
        <Card title="Removed operations">
          <ul className="comparison-list">
            {removed.map((o) => (
              <li key={`${o.method} ${o.path}`}>
                <span className="badge badge-danger">Breaking</span> {op(o)}
              </li>
            ))}
          </ul>
        </Card>
      )}
      {changed.length > 0 && (
        <Card title="Changed operations">
          <ul className="comparison-list">
            {changed.map((o) => (
              <li key={`${o.method} ${o.path}`}>
                <p>{op(o)}</p>
                <ul>
                  {o.changes.map((change, i) => (
                    <li key={i}>
                      {change.breaking && <span className="badge badge-danger">Breaking</span>} {change.message}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {added.length > 0 && (
        <Card title="Added operations">
          <ul className="comparison-list">
            {added.map((o) => (
              <li key={`${o.method} ${o.path}`}>{op(o)}</li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}
