import { useNavigate } from '@tanstack/react-router';
import { useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { EditIcon, PlusIcon } from '../../../components/ui/icons';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import type { ChangeRequest } from '../../../../shared/contract';
import { Dialog, DialogClose, DialogFooter } from '../../../components/ui/dialog';
import { RelativeTime } from '../../../components/ui/time';
import { useCreateChangeRequest } from '../api/create-change-request';
import { getChangeRequests } from '../api/get-change-requests';
import { changeRequestTitle } from '../utils/labels';
import { CreateChangeRequestDialog } from '../forms/create-change-request-dialog';
import '../change-requests.css';

interface SpaceAccess {
  organizationId: string;
  spaceId: string;
  /** The space's edit level: without it, nothing to show. */
  canEdit: boolean;
  /** A locked space refuses edits (and merges). */
  locked: boolean;
}

const LOCKED_REASON = 'The space is locked: unlock it in its settings to edit.';

/** A disabled action says why it is disabled, in text every reader gets. */
function Reason({ id, children }: { id: string; children: string }) {
  return (
    <span id={id} className="action-reason">
      {children}
    </span>
  );
}

/** "New change request": asks for a subject, then opens the editor of the new change request. */
export function NewChangeRequestButton({
  organizationId,
  spaceId,
  canEdit,
  locked,
  variant = 'primary',
  label = 'New change request',
}: SpaceAccess & { variant?: 'primary' | 'secondary'; label?: string }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();
  const reasonId = useId();
  if (!canEdit) return null;
  return (
    <span className="action-with-reason">
      <Button
        ref={button}
        variant={variant}
        disabled={locked}
        aria-describedby={locked ? reasonId : undefined}
        onClick={() => setOpen(true)}
      >
        <PlusIcon /> {label}
      </Button>
      {locked && <Reason id={reasonId}>{LOCKED_REASON}</Reason>}
      <CreateChangeRequestDialog
        spaceId={spaceId}
        open={open}
        onOpenChange={setOpen}
        returnFocusRef={button}
        onCreated={(created) => {
          setOpen(false);
          void navigate({
            to: '/o/$organizationId/spaces/$spaceId/change-requests/$number/pages',
            params: { organizationId, spaceId, number: created.number },
          });
        }}
      />
    </span>
  );
}

/**
 * "Edit in a change request" on a page of the space: continues the open change request the user works on in this
 * space (asking which one when there are several, or whether to start another), else starts one; then opens the
 * page in its editor.
 */
export function EditPageButton({
  organizationId,
  spaceId,
  canEdit,
  locked,
  pageId,
  userId,
}: SpaceAccess & { pageId: string; userId: string }) {
  const create = useCreateChangeRequest(spaceId);
  const navigate = useNavigate();
  const toast = useToast();
  const reasonId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const [looking, setLooking] = useState(false);
  const [choices, setChoices] = useState<ChangeRequest[]>([]);
  if (!canEdit) return null;
  const open = (number: number) =>
    void navigate({
      to: '/o/$organizationId/spaces/$spaceId/change-requests/$number/pages/$pageId',
      params: { organizationId, spaceId, number, pageId },
    });
  const startNew = () =>
    create.mutate(
      {},
      {
        onSuccess: (created) => {
          setChoices([]);
          open(created.number);
        },
        onError: (error) => toast.show(errorMessage(error), 'error'),
      },
    );
  const start = async () => {
    setLooking(true);
    try {
      const mine = await getChangeRequests(spaceId, { status: 'open', contributor: userId, limit: 10 });
      if (mine.items.length === 0) return startNew();
      if (mine.items.length === 1) {
        toast.show(`Continuing your change request “${changeRequestTitle(mine.items[0]!)}”`, 'info');
        return open(mine.items[0]!.number);
      }
      setChoices(mine.items);
    } catch (error) {
      toast.show(errorMessage(error), 'error');
    } finally {
      setLooking(false);
    }
  };
  return (
    <span className="action-with-reason">
      <Button
        ref={button}
        variant="secondary"
        disabled={locked}
        loading={looking || create.isPending}
        aria-describedby={locked ? reasonId : undefined}
        onClick={() => void start()}
      >
        <EditIcon /> Edit in a change request
      </Button>
      {locked && <Reason id={reasonId}>{LOCKED_REASON}</Reason>}
      <Dialog
        open={choices.length > 0}
        onOpenChange={(next) => !next && setChoices([])}
        title="Which change request?"
        description="You have several open change requests in this space. Continue one, or start another."
        returnFocusRef={button}
      >
        <ul className="choice-list" aria-label="Your open change requests">
          {choices.map((cr) => (
            <li key={cr.id}>
              <button type="button" className="choice" onClick={() => open(cr.number)}>
                <span className="choice-title">{changeRequestTitle(cr)}</span>
                <span className="choice-meta">
                  #{cr.number} · updated <RelativeTime value={cr.updatedAt} />
                </span>
              </button>
            </li>
          ))}
        </ul>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="ghost">Cancel</Button>
          </DialogClose>
          <Button variant="secondary" loading={create.isPending} onClick={startNew}>
            <PlusIcon /> Start a new change request
          </Button>
        </DialogFooter>
      </Dialog>
    </span>
  );
}
