import type { Collection } from '../../../../shared/contract';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  useMenuDialogs,
} from '../../../components/ui/dropdown-menu';
import { FolderIcon, DocIcon, MoreIcon, TrashIcon } from '../../../components/ui/icons';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCollections } from '../api/get-collections';
import { useMoveCollection } from '../api/move-collection';
import { neighbours } from '../utils/tree';
import '../content.css';

const CreateCollectionDialog = lazyDialog(() =>
  import('../forms/create-collection-dialog').then((m) => m.CreateCollectionDialog),
);
const CreateSpaceDialog = lazyDialog(() => import('../forms/create-space-dialog').then((m) => m.CreateSpaceDialog));
const DeleteCollectionDialog = lazyDialog(() =>
  import('../forms/delete-dialogs').then((m) => m.DeleteCollectionDialog),
);
const EditCollectionDialog = lazyDialog(() =>
  import('../forms/edit-collection-dialog').then((m) => m.EditCollectionDialog),
);
const MoveDialog = lazyDialog(() => import('../forms/move-dialog').then((m) => m.MoveDialog));

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
  const { trigger, openDialog, onCloseAutoFocus, dialog } = useMenuDialogs<
    'space' | 'collection' | 'edit' | 'move' | 'delete'
  >();
  const collections = useCollections(collection.organization);
  const move = useMoveCollection(collection);
  const toast = useToast();
  const { admin, create } = collection.permissions;
  if (!admin && !(create && showCreate)) return null;

  const { previous, next } = neighbours(collections, collection);
  const reorder = (position: NonNullable<Parameters<typeof move.mutate>[0]['position']>) =>
    move.mutate({ position }, { onError: (error) => toast.show(errorMessage(error), 'error') });

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
        <DropdownMenuContent onCloseAutoFocus={onCloseAutoFocus}>
          {create && showCreate && (
            <>
              <DropdownMenuItem icon={<DocIcon />} onSelect={() => openDialog('space')}>
                New space inside…
              </DropdownMenuItem>
              <DropdownMenuItem icon={<FolderIcon />} onSelect={() => openDialog('collection')}>
                New collection inside…
              </DropdownMenuItem>
              {admin && <DropdownMenuSeparator />}
            </>
          )}
          {admin && (
            <>
              <DropdownMenuItem onSelect={() => openDialog('edit')}>Rename…</DropdownMenuItem>
              <DropdownMenuItem onSelect={() => openDialog('move')}>Move to…</DropdownMenuItem>
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
              <DropdownMenuItem danger icon={<TrashIcon />} onSelect={() => openDialog('delete')}>
                Delete…
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <CreateSpaceDialog organizationId={collection.organization} parent={collection} {...dialog('space')} />
      <CreateCollectionDialog organizationId={collection.organization} parent={collection} {...dialog('collection')} />
      <EditCollectionDialog collection={collection} {...dialog('edit')} />
      <MoveDialog item={{ type: 'collection', collection }} {...dialog('move')} />
      <DeleteCollectionDialog collection={collection} {...dialog('delete')} onDeleted={onDeleted} />
    </>
  );
}
