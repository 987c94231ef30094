import { useRef, useState } from 'react';
import type { Collection } from '../../../../shared/contract';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { FolderIcon, DocIcon, MoreIcon, TrashIcon } from '../../../components/ui/icons';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCollections } from '../api/get-collections';
import { useMoveCollection } from '../api/move-collection';
import { CreateCollectionDialog } from '../forms/create-collection-dialog';
import { CreateSpaceDialog } from '../forms/create-space-dialog';
import { DeleteCollectionDialog } from '../forms/delete-dialogs';
import { EditCollectionDialog } from '../forms/edit-collection-dialog';
import { MoveDialog } from '../forms/move-dialog';
import { neighbours } from '../utils/tree';

type Open = 'space' | 'collection' | 'edit' | 'move' | 'delete' | null;

/** The "…" menu of a collection: create inside, rename, move, reorder, delete. */
export function CollectionActions({
  collection,
  onDeleted,
  showCreate = true,
}: {
  collection: Collection;
  onDeleted?: () => Promise<void> | void;
  showCreate?: boolean;
}) {
  const [open, setOpen] = useState<Open>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const collections = useCollections(collection.organization);
  const move = useMoveCollection(collection);
  const toast = useToast();
  const { admin, create } = collection.permissions;
  if (!admin && !(create && showCreate)) return null;

  const { previous, next } = neighbours(collections, collection);
  const reorder = (position: NonNullable<Parameters<typeof move.mutate>[0]['position']>) =>
    move.mutate({ position }, { onError: (error) => toast.show(errorMessage(error), 'error') });
  const close = (value: boolean) => !value && setOpen(null);

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          ref={trigger}
          className="btn btn-ghost btn-sm btn-icon"
          aria-label={`Actions for collection ${collection.title}`}
        >
          <MoreIcon />
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          {create && showCreate && (
            <>
              <DropdownMenuItem icon={<DocIcon />} onSelect={() => setOpen('space')}>
                New space inside…
              </DropdownMenuItem>
              <DropdownMenuItem icon={<FolderIcon />} onSelect={() => setOpen('collection')}>
                New collection inside…
              </DropdownMenuItem>
              {admin && <DropdownMenuSeparator />}
            </>
          )}
          {admin && (
            <>
              <DropdownMenuItem onSelect={() => setOpen('edit')}>Rename…</DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setOpen('move')}>Move to…</DropdownMenuItem>
              <DropdownMenuItem
                disabled={!previous}
                onSelect={() => previous && reorder({ before: { type: 'collection', collection: previous.id } })}
              >
                Move up
              </DropdownMenuItem>
              <DropdownMenuItem
                disabled={!next}
                onSelect={() => next && reorder({ after: { type: 'collection', collection: next.id } })}
              >
                Move down
              </DropdownMenuItem>
              <DropdownMenuSeparator />
              <DropdownMenuItem danger icon={<TrashIcon />} onSelect={() => setOpen('delete')}>
                Delete…
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <CreateSpaceDialog
        organizationId={collection.organization}
        parent={collection}
        open={open === 'space'}
        onOpenChange={close}
        returnFocusRef={trigger}
      />
      <CreateCollectionDialog
        organizationId={collection.organization}
        parent={collection}
        open={open === 'collection'}
        onOpenChange={close}
        returnFocusRef={trigger}
      />
      <EditCollectionDialog
        collection={collection}
        open={open === 'edit'}
        onOpenChange={close}
        returnFocusRef={trigger}
      />
      <MoveDialog
        item={{ type: 'collection', collection }}
        open={open === 'move'}
        onOpenChange={close}
        returnFocusRef={trigger}
      />
      <DeleteCollectionDialog
        collection={collection}
        open={open === 'delete'}
        onOpenChange={close}
        returnFocusRef={trigger}
        onDeleted={onDeleted}
      />
    </>
  );
}
