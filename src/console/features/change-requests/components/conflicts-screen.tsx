import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { conflictResolutionSchema } from '../../../../shared/contract';
import type { ChangeRequestConflict, ConflictResolution, RevisionPage } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { TextareaField } from '../../../components/ui/field';
import { CheckIcon } from '../../../components/ui/icons';
import { Markdown } from '../../../components/ui/markdown';
import { findPage } from '../../../lib/page-tree';
import { EmptyState, FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { showServerError, useZodForm } from '../../../lib/form';
import { useChangeRequest } from '../api/get-change-request';
import { useChangeRequestPages } from '../api/get-change-request-pages';
import { useConflicts } from '../api/get-conflicts';
import { useResolveConflict } from '../api/resolve-conflict';
import { plural } from '../utils/labels';
import '../change-requests.css';

interface Props {
  organizationId: string;
  spaceId: string;
  number: number;
  /** Why conflicts cannot be resolved here (role, locked space), if so. */
  readOnly?: string;
}

/**
 * The conflicts of the pending update from the space: for each, the space's version beside this change request's,
 * and a choice: keep one, or write the text to keep. Once the last is resolved, the update applies.
 */
export function ConflictsScreen({ organizationId, spaceId, number, readOnly }: Props) {
  const conflicts = useConflicts(spaceId, number);
  const pages = useChangeRequestPages(spaceId, number);
  const changeRequest = useChangeRequest(spaceId, number);
  const reviewLink = (
    <Link
      to="/o/$organizationId/spaces/$spaceId/change-requests/$number"
      params={{ organizationId, spaceId, number }}
      className="btn btn-secondary"
    >
      Back to the review
    </Link>
  );
  if (conflicts.count === 0) {
    return (
      <EmptyState icon={<CheckIcon width={28} height={28} />} title="No conflicts" action={reviewLink}>
        {changeRequest.outdated
          ? 'Nothing waits for a resolution. The space changed since this change request started: update it from the review to check again.'
          : 'This change request is up to date with the space.'}
      </EmptyState>
    );
  }
  return (
    <section className="section" aria-labelledby="conflicts-title">
      <div className="section-header">
        <h3 id="conflicts-title" className="section-title">
          {conflicts.unresolved > 0
            ? `${plural(conflicts.unresolved, 'conflict')} to resolve`
            : 'Every conflict has a resolution'}
        </h3>
        {reviewLink}
      </div>
      <p className="section-text">
        The space and this change request changed the same content. For each conflict, keep one version or write the
        text to keep. When the last one is resolved, the change request is updated from the space and can be merged.
      </p>
      {readOnly && <p className="notice notice-info">{readOnly}</p>}
      <ol className="conflict-list">
        {conflicts.items.map((conflict, index) => (
          <ConflictCard
            key={conflict.id}
            organizationId={organizationId}
            spaceId={spaceId}
            number={number}
            conflict={conflict}
            index={index}
            pages={pages}
            readOnly={readOnly !== undefined}
            nextId={conflicts.items.slice(index + 1).find((next) => !next.resolution)?.id}
          />
        ))}
      </ol>
    </section>
  );
}

const FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  slug: 'Slug',
  emoji: 'Emoji',
  description: 'Description',
  href: 'Link',
};

function conflictHeading(conflict: ChangeRequestConflict): string {
  const page = conflict.pageTitle ? `“${conflict.pageTitle}”` : 'A page';
  switch (conflict.kind) {
    case 'block':
      return `${page}: the same paragraph changed on both sides`;
    case 'page-field':
      return `${page}: ${(FIELD_LABELS[conflict.field ?? ''] ?? conflict.field ?? 'a field').toLowerCase()} changed on both sides`;
    case 'page-deleted':
      return conflict.space === null
        ? `${page} was deleted in the space but edited here`
        : `${page} was edited in the space but deleted here`;
    case 'page-moved':
      return `${page} was moved to different places`;
    case 'file':
      return `File ${conflict.changeRequest ?? conflict.space ?? conflict.base ?? ''} changed on both sides`;
  }
}

const cardId = (conflictId: string) => `conflict-${conflictId.replace(/[^a-zA-Z0-9_-]/g, '_')}`;

function ConflictCard({
  organizationId,
  spaceId,
  number,
  conflict,
  index,
  pages,
  readOnly,
  nextId,
}: {
  organizationId: string;
  spaceId: string;
  number: number;
  conflict: ChangeRequestConflict;
  index: number;
  pages: RevisionPage[];
  readOnly: boolean;
  nextId?: string;
}) {
  const resolve = useResolveConflict(spaceId, number);
  const toast = useToast();
  const navigate = useNavigate();
  const [changing, setChanging] = useState(false);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string>();
  const editable = conflict.kind === 'block' || conflict.kind === 'page-field';
  const titleId = `${cardId(conflict.id)}-title`;

  const apply = async (resolution: ConflictResolution) => {
    setError(undefined);
    const result = await resolve.mutateAsync({ conflictId: conflict.id, resolution });
    setChanging(false);
    setEditing(false);
    if (result.result === 'update') {
      toast.show('Conflicts resolved: the change request is up to date with the space');
      void navigate({
        to: '/o/$organizationId/spaces/$spaceId/change-requests/$number',
        params: { organizationId, spaceId, number },
      });
    } else if (nextId) {
      // Straight on to the next conflict that waits, unless the person has gone on elsewhere meanwhile (the focus
      // is theirs then: taking it from a field they opened would make them lose their place).
      const active = document.activeElement;
      const card = document.getElementById(cardId(conflict.id));
      if (!active || active === document.body || card?.contains(active)) {
        document.getElementById(`${cardId(nextId)}-title`)?.focus();
      }
    }
  };
  const keep = (side: 'space' | 'change-request') =>
    apply({ keep: side }).catch((failure: unknown) => setError(errorMessage(failure)));

  const choosing = !readOnly && (!conflict.resolution || changing);
  return (
    <li className={`conflict-card${conflict.resolution ? ' conflict-resolved' : ''}`} id={cardId(conflict.id)}>
      <h4 id={titleId} className="conflict-title" tabIndex={-1}>
        <span className="conflict-index">{index + 1}.</span> {conflictHeading(conflict)}
      </h4>
      <div className="conflict-sides" role="group" aria-label="The two versions">
        <ConflictSide conflict={conflict} side="space" pages={pages} />
        <ConflictSide conflict={conflict} side="changeRequest" pages={pages} />
      </div>
      {conflict.base !== null && conflict.kind === 'block' && (
        <details className="conflict-base">
          <summary>Show the version both started from</summary>
          <Markdown headingOffset={2}>{conflict.base}</Markdown>
        </details>
      )}
      <FormError message={error} />
      {conflict.resolution && !changing && (
        <p className="conflict-resolution" role="status">
          <CheckIcon /> {resolutionText(conflict.resolution)}
          {!readOnly && (
            <Button size="sm" variant="ghost" onClick={() => setChanging(true)}>
              Change
            </Button>
          )}
        </p>
      )}
      {choosing && !editing && (
        <div className="conflict-actions" role="group" aria-labelledby={titleId}>
          <Button disabled={resolve.isPending} onClick={() => void keep('space')}>
            {keepLabel(conflict, 'space')}
          </Button>
          <Button disabled={resolve.isPending} onClick={() => void keep('change-request')}>
            {keepLabel(conflict, 'change-request')}
          </Button>
          {editable && (
            <Button variant="ghost" disabled={resolve.isPending} onClick={() => setEditing(true)}>
              Edit the text…
            </Button>
          )}
          {conflict.resolution && (
            <Button variant="ghost" onClick={() => setChanging(false)}>
              Cancel
            </Button>
          )}
        </div>
      )}
      {choosing && editing && (
        <ResolveWithText
          conflict={conflict}
          onCancel={() => setEditing(false)}
          onSubmit={(markdown) => apply({ markdown })}
        />
      )}
    </li>
  );
}

function keepLabel(conflict: ChangeRequestConflict, side: 'space' | 'change-request'): string {
  if (conflict.kind === 'page-deleted') {
    const deletedOnThisSide = (side === 'space' ? conflict.space : conflict.changeRequest) === null;
    return deletedOnThisSide
      ? 'Keep it deleted'
      : side === 'space'
        ? 'Keep the space’s page'
        : 'Keep this change request’s page';
  }
  return side === 'space' ? 'Keep the space’s version' : 'Keep this change request’s version';
}

function resolutionText(resolution: ConflictResolution): string {
  if ('markdown' in resolution) return 'Resolved with your text.';
  return resolution.keep === 'space'
    ? 'Resolved: the space’s version is kept.'
    : 'Resolved: this change request’s version is kept.';
}

function ConflictSide({
  conflict,
  side,
  pages,
}: {
  conflict: ChangeRequestConflict;
  side: 'space' | 'changeRequest';
  pages: RevisionPage[];
}) {
  const value = conflict[side];
  const heading = side === 'space' ? 'In the space' : 'In this change request';
  let body;
  if (conflict.kind === 'block') {
    body = value === null ? <p className="conflict-absent">Deleted</p> : <Markdown headingOffset={2}>{value}</Markdown>;
  } else if (conflict.kind === 'page-deleted') {
    body = <p className={value === null ? 'conflict-absent' : undefined}>{value === null ? 'Deleted' : 'Edited'}</p>;
  } else if (conflict.kind === 'page-moved') {
    const parent = value === null ? undefined : findPage(pages, value);
    body = <p>{value === null ? 'At the top level' : `Inside “${parent?.title ?? 'another page'}”`}</p>;
  } else {
    body =
      value === null || value === '' ? (
        <p className="conflict-absent">None</p>
      ) : (
        <p className="conflict-text">{value}</p>
      );
  }
  return (
    <section className={`conflict-side conflict-side-${side === 'space' ? 'space' : 'cr'}`} aria-label={heading}>
      <h5 className="conflict-side-title">{heading}</h5>
      {conflict.kind === 'page-field' && conflict.field && (
        <p className="conflict-field">{FIELD_LABELS[conflict.field] ?? conflict.field}</p>
      )}
      {body}
    </section>
  );
}

const textSchema = conflictResolutionSchema.options[1];

function ResolveWithText({
  conflict,
  onCancel,
  onSubmit,
}: {
  conflict: ChangeRequestConflict;
  onCancel: () => void;
  onSubmit: (markdown: string) => Promise<void>;
}) {
  const form = useZodForm(textSchema, {
    defaultValues: { markdown: conflict.changeRequest ?? conflict.space ?? '' },
  });
  const submit = form.handleSubmit(async ({ markdown }) => {
    try {
      await onSubmit(markdown);
    } catch (error) {
      showServerError(form, error, ['markdown']);
    }
  });
  return (
    <form className="form conflict-edit" onSubmit={submit} noValidate aria-label="Text to keep">
      <FormError message={form.formState.errors.root?.server?.message} />
      <TextareaField
        control={form.control}
        name="markdown"
        label={conflict.kind === 'block' ? 'Text to keep (markdown)' : 'Value to keep'}
        rows={conflict.kind === 'block' ? 6 : 2}
        autoFocus
      />
      <div className="form-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" loading={form.formState.isSubmitting}>
          Use this text
        </Button>
      </div>
    </form>
  );
}
