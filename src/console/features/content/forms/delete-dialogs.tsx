import type { RefObject } from 'react';
import { SPACE_TRASH_DAYS } from '../../../../shared/contract';
import type { Collection, Space } from '../../../../shared/contract';
import { ConfirmDialog, type ConfirmDialogProps } from '../../../components/ui/confirm-dialog';
import { useToast } from '../../../components/ui/toast';
import { useDeleteCollection } from '../api/delete-collection';
import { useCollections } from '../api/get-collections';
import { useSpaces } from '../api/get-spaces';
import { useDeleteSpace } from '../api/delete-space';
import { SPACE_UNTITLED } from '../utils/labels';
import { contentsOf, plural } from '../utils/tree';
import '../content.css';

interface ConfirmProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
  /** Runs once deleted, before the cache forgets the item (e.g. leave the page that shows it). */
  onDeleted?: () => Promise<void> | void;
}

/** Asks before a space goes to the trash. */
export function DeleteSpaceDialog({ space, onDeleted, ...props }: ConfirmProps & { space: Space }) {
  const remove = useDeleteSpace(space, { onDeleted });
  const title = space.title || SPACE_UNTITLED;
  return (
    <ConfirmDelete
      {...props}
      title="Delete space?"
      confirmLabel="Delete space"
      doneMessage={`“${title}” moved to the trash`}
      action={() => remove.mutateAsync()}
    >
      <p>
        <strong>“{title}”</strong> moves to the trash. You can restore it from Trash for {SPACE_TRASH_DAYS} days; after
        that it is removed for good.
      </p>
    </ConfirmDelete>
  );
}

/** Asks before a collection is deleted, saying what goes with it. */
export function DeleteCollectionDialog({ collection, onDeleted, ...props }: ConfirmProps & { collection: Collection }) {
  const remove = useDeleteCollection(collection, { onDeleted });
  const collections = useCollections(collection.organization);
  const spaces = useSpaces(collection.organization);
  const inside = contentsOf(collections, spaces, collection.id);
  return (
    <ConfirmDelete
      {...props}
      title="Delete collection?"
      confirmLabel="Delete collection"
      doneMessage={`Collection “${collection.title}” deleted`}
      action={() => remove.mutateAsync()}
    >
      <p>
        <strong>“{collection.title}”</strong> will be deleted
        {inside.collections > 0 && <> with the {plural(inside.collections, 'collection')} inside it</>}.
      </p>
      {inside.spaces > 0 ? (
        <p>
          {plural(inside.spaces, 'space')} inside it will move to the trash, where they can be restored for{' '}
          {SPACE_TRASH_DAYS} days.
        </p>
      ) : (
        <p>It holds no spaces.</p>
      )}
    </ConfirmDelete>
  );
}

/** The shared confirmation, with a toast once the item is gone. */
function ConfirmDelete({
  doneMessage,
  action,
  ...props
}: Omit<ConfirmProps, 'onDeleted'> &
  Omit<ConfirmDialogProps, 'variant' | 'action'> & { doneMessage: string; action: () => Promise<unknown> }) {
  const toast = useToast();
  return (
    <ConfirmDialog
      {...props}
      action={async () => {
        await action();
        toast.show(doneMessage);
      }}
    />
  );
}
