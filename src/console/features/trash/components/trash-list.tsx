import { useState } from 'react';
import { SPACE_TRASH_DAYS } from '../../../../shared/contract';
import type { Space } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { DocIcon, RestoreIcon, TrashIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page';
import { EmptyState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useRestoreSpace } from '../api/restore-space';
import { useTrash } from '../api/get-trash';
import '../trash.css';

const DAY_MS = 24 * 60 * 60 * 1000;
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

function ago(iso: string, now: number): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of steps) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

function daysLeft(iso: string, now: number): number {
  return Math.max(0, Math.ceil((new Date(iso).getTime() + SPACE_TRASH_DAYS * DAY_MS - now) / DAY_MS));
}

/** Spaces deleted in the last days, each with a way back. */
export function TrashList({ organizationId }: { organizationId: string }) {
  const spaces = useTrash(organizationId);
  const [now] = useState(() => Date.now());
  return (
    <>
      <PageHeader
        title="Trash"
        description={`Deleted spaces stay here for ${SPACE_TRASH_DAYS} days. Restore one to put it back; after that it is removed for good.`}
      />
      {spaces.length === 0 ? (
        <EmptyState icon={<TrashIcon width={28} height={28} />} title="The trash is empty">
          Spaces you delete will appear here.
        </EmptyState>
      ) : (
        <div className="panel">
          <ul className="trash-list" aria-label="Deleted spaces">
            {spaces.map((space) => (
              <TrashItem key={space.id} space={space} organizationId={organizationId} now={now} />
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

function TrashItem({ space, organizationId, now }: { space: Space; organizationId: string; now: number }) {
  const restore = useRestoreSpace(organizationId);
  const toast = useToast();
  const title = space.title || 'Untitled';
  const left = space.deletedAt ? daysLeft(space.deletedAt, now) : undefined;
  return (
    <li className="trash-item">
      <span className="tree-icon" aria-hidden="true">
        {space.emoji || <DocIcon />}
      </span>
      <div className="trash-text">
        <span className="trash-title">{title}</span>
        {space.deletedAt && (
          <span className="trash-meta">
            Deleted {ago(space.deletedAt, now)}
            {left !== undefined && ` · ${left === 1 ? '1 day' : `${left} days`} left to restore`}
          </span>
        )}
        {restore.isError && (
          <span className="field-error" role="alert">
            {errorMessage(restore.error)}
          </span>
        )}
      </div>
      {space.permissions.admin && (
        <Button
          size="sm"
          loading={restore.isPending}
          aria-label={`Restore ${title}`}
          onClick={() =>
            restore.mutate(space, {
              onSuccess: (restored) => toast.show(`“${restored.title || title}” restored`),
            })
          }
        >
          <RestoreIcon /> Restore
        </Button>
      )}
    </li>
  );
}
