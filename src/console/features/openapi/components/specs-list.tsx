import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import type { OpenApiSpec } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { PlusIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useSpecs } from '../api/get-specs';
import { SpecSourceDialog } from '../forms/spec-source-dialog';
import { SpecState } from './spec-state';
import '../openapi.css';

interface Props {
  organizationId: string;
  canCreate: boolean;
  onOpenSpec: (slug: string) => void;
}

/** The organization's OpenAPI specifications, their processing followed live. */
export function SpecsList({ organizationId, canCreate, onOpenSpec }: Props) {
  const specs = useSpecs(organizationId);
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const add = (label: string, withRef = false) =>
    canCreate && (
      <Button variant="primary" ref={withRef ? addButton : undefined} onClick={() => setAdding(true)}>
        <PlusIcon /> {label}
      </Button>
    );
  return (
    <>
      <PageHeader
        title="API specifications"
        description="OpenAPI documents your pages show as API references. Publish them here or with `gitbook openapi publish`."
        actions={add('Add specification', true)}
      />
      {specs.isPending ? (
        <Loading label="Loading specifications…" />
      ) : specs.isError ? (
        <ErrorState error={specs.error} onRetry={() => void specs.refetch()} />
      ) : specs.data.length === 0 ? (
        <EmptyState title="No API specification yet" action={add('Add a specification')}>
          {canCreate
            ? 'Add an OpenAPI file, by URL or upload, then show its operations in pages with an OpenAPI block.'
            : 'Members with the create role add specifications.'}
        </EmptyState>
      ) : (
        <ul className="panel team-list" aria-label="API specifications">
          {specs.data.map((spec) => (
            <SpecItem key={spec.id} organizationId={organizationId} spec={spec} />
          ))}
        </ul>
      )}
      {canCreate && (
        <SpecSourceDialog
          organizationId={organizationId}
          open={adding}
          onOpenChange={setAdding}
          returnFocusRef={addButton}
          onSaved={(spec) => onOpenSpec(spec.slug)}
        />
      )}
    </>
  );
}

function SpecItem({ organizationId, spec }: { organizationId: string; spec: OpenApiSpec }) {
  return (
    <li className="team-item spec-item">
      <div className="members-person-text">
        <Link
          className="team-title"
          to="/o/$organizationId/openapi/$specSlug"
          params={{ organizationId, specSlug: spec.slug }}
        >
          {spec.slug}
        </Link>
        <span className="team-meta">
          {spec.sourceURL ? spec.sourceURL : 'Uploaded text'}
          {spec.lastProcessedAt && (
            <>
              {' '}
              · processed <RelativeTime value={spec.lastProcessedAt} />
            </>
          )}
          {spec.visibility === 'public' && ' · public'}
        </span>
      </div>
      <SpecState spec={spec} />
    </li>
  );
}
