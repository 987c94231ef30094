import { Link, useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import type { ChangeRequest } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { MergeIcon } from '../../../components/ui/icons';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { isApiError } from '../../../lib/api-client';
import { useMergeChangeRequest } from '../api/merge-change-request';
import { useUpdateFromSpace } from '../api/update-from-space';
import { changeRequestTitle, plural } from '../utils/labels';
import '../change-requests.css';

/** Why the change request cannot be merged now, or undefined when it can. Mirrors the server's refusals. */
export function mergeBlocker(changeRequest: ChangeRequest, spaceLocked: boolean, hasChanges: boolean) {
  if (changeRequest.status === 'archived') return 'It is archived: reopen it to merge it.';
  if (!changeRequest.permissions.merge) return 'Merging needs the review role or higher on this space.';
  if (spaceLocked) return 'The space is locked: change requests cannot be merged until it is unlocked.';
  if (changeRequest.conflicts > 0)
    return `${plural(changeRequest.conflicts, 'conflict')} with the space must be resolved first.`;
  if (!hasChanges) return 'There is nothing to merge yet.';
  return undefined;
}

export function MergePanel({
  organizationId,
  changeRequest,
  spaceLocked,
  hasChanges,
}: {
  organizationId: string;
  changeRequest: ChangeRequest;
  spaceLocked: boolean;
  hasChanges: boolean;
}) {
  const merge = useMergeChangeRequest(changeRequest.space, changeRequest.number);
  const update = useUpdateFromSpace(changeRequest.space, changeRequest.number);
  const navigate = useNavigate();
  const toast = useToast();
  /**
   * A merge the space's changes conflict with: the change request is updated from the space, and its conflicts
   * open to choose what to keep (an update that finds none leaves it ready to merge again).
   */
  const updateForConflicts = async () => {
    const updated = await update.mutateAsync();
    if (updated.result !== 'conflicts') {
      toast.show('Updated from the space: review the changes and merge again', 'info');
      return;
    }
    toast.show('The space changed the same content: choose what to keep, then merge', 'info');
    await navigate({
      to: '/o/$organizationId/spaces/$spaceId/change-requests/$number/conflicts',
      params: { organizationId, spaceId: changeRequest.space, number: changeRequest.number },
    });
  };
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const spaceLink = (
    <Link to="/o/$organizationId/spaces/$spaceId" params={{ organizationId, spaceId: changeRequest.space }}>
      See the space
    </Link>
  );

  if (changeRequest.status === 'merged') {
    return (
      <section className="panel-card merge-panel merge-done" aria-labelledby="merge-title">
        <h3 id="merge-title" className="panel-card-title">
          <MergeIcon /> Merged
        </h3>
        <p>
          Merged into the space
          {changeRequest.mergedAt && (
            <>
              {' '}
              <RelativeTime value={changeRequest.mergedAt} />
            </>
          )}
          {changeRequest.mergedBy && <> by {changeRequest.mergedBy.displayName}</>}. {spaceLink}
        </p>
      </section>
    );
  }

  const blocked = mergeBlocker(changeRequest, spaceLocked, hasChanges);
  return (
    <section className="panel-card merge-panel" aria-labelledby="merge-title">
      <h3 id="merge-title" className="panel-card-title">
        Merge
      </h3>
      <p className="panel-card-text">
        {changeRequest.outdated
          ? 'The space changed since this change request started; merging combines both.'
          : 'Merging applies these changes to the space.'}
      </p>
      <Button
        ref={button}
        variant="primary"
        className="btn-block"
        disabled={blocked !== undefined}
        aria-describedby={blocked ? 'merge-blocked' : undefined}
        onClick={() => setConfirming(true)}
      >
        <MergeIcon /> Merge into the space
      </Button>
      {blocked && (
        <p id="merge-blocked" className="merge-reason">
          {blocked}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        returnFocusRef={button}
        title="Merge this change request?"
        confirmLabel="Merge"
        variant="primary"
        action={async () => {
          try {
            await merge.mutateAsync();
          } catch (error) {
            if (!isApiError(error, 409) || error.reason !== 'merge-conflicts') throw error;
            return updateForConflicts();
          }
          toast.show(`“${changeRequestTitle(changeRequest)}” merged into the space`);
        }}
      >
        <p>
          The changes of <strong>“{changeRequestTitle(changeRequest)}”</strong> become the space’s content, for every
          reader.
        </p>
      </ConfirmDialog>
    </section>
  );
}
