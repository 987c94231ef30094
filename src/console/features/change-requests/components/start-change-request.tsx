import { useNavigate } from '@tanstack/react-router';
import { useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { EditIcon, PlusIcon } from '../../../components/ui/icons';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCreateChangeRequest } from '../api/create-change-request';
import { CreateChangeRequestDialog } from '../forms/create-change-request-dialog';

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

/** "Edit" on a page of the space: starts a change request at once and opens that page in its editor. */
export function EditPageButton({ organizationId, spaceId, canEdit, locked, pageId }: SpaceAccess & { pageId: string }) {
  const create = useCreateChangeRequest(spaceId);
  const navigate = useNavigate();
  const toast = useToast();
  const reasonId = useId();
  if (!canEdit) return null;
  return (
    <span className="action-with-reason">
      <Button
        variant="secondary"
        disabled={locked}
        loading={create.isPending}
        aria-describedby={locked ? reasonId : undefined}
        onClick={() =>
          create.mutate(
            {},
            {
              onSuccess: (created) =>
                void navigate({
                  to: '/o/$organizationId/spaces/$spaceId/change-requests/$number/pages/$pageId',
                  params: { organizationId, spaceId, number: created.number, pageId },
                }),
              onError: (error) => toast.show(errorMessage(error), 'error'),
            },
          )
        }
      >
        <EditIcon /> Edit in a change request
      </Button>
      {locked && <Reason id={reasonId}>{LOCKED_REASON}</Reason>}
    </span>
  );
}
