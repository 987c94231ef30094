import type { Space } from '../../../../shared/contract';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  useMenuDialogs,
} from '../../../components/ui/dropdown-menu';
import { MoreIcon, TrashIcon } from '../../../components/ui/icons';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDuplicateSpace } from '../api/duplicate-space';
import { useSpaces } from '../api/get-spaces';
import { useMoveSpace } from '../api/move-space';
import { SPACE_UNTITLED } from '../utils/labels';
import { neighbours } from '../utils/tree';
import '../content.css';

const DeleteSpaceDialog = lazyDialog(() => import('../forms/delete-dialogs').then((m) => m.DeleteSpaceDialog));
const MoveDialog = lazyDialog(() => import('../forms/move-dialog').then((m) => m.MoveDialog));
const RenameSpaceDialog = lazyDialog(() => import('../forms/rename-space-dialog').then((m) => m.RenameSpaceDialog));

/** The "…" menu of a space: rename, move, reorder, duplicate, delete. Hidden when the caller may do none of it. */
export function SpaceActions({
  space,
  onDeleted,
  showRename = true,
}: {
  space: Space;
  onDeleted?: () => Promise<void> | void;
  showRename?: boolean;
}) {
  const { trigger, openDialog, onCloseAutoFocus, dialog } = useMenuDialogs<'rename' | 'move' | 'delete'>();
  const spaces = useSpaces(space.organization);
  const move = useMoveSpace(space);
  const duplicate = useDuplicateSpace(space);
  const toast = useToast();
  // Renaming needs the edit level; moving and deleting need admin; duplicating is checked by the server
  // (it needs the create level where the copy goes).
  const admin = space.permissions.admin;
  if (!space.permissions.edit) return null;

  const title = space.title || SPACE_UNTITLED;
  const { previous, next } = neighbours(spaces, space);
  const reorder = (position: NonNullable<Parameters<typeof move.mutate>[0]['position']>) =>
    move.mutate({ position }, { onError: (error) => toast.show(errorMessage(error), 'error') });

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          ref={trigger}
          className="btn btn-ghost btn-sm btn-icon"
          aria-label={`Actions for space ${title}`}
        >
          <MoreIcon />
        </DropdownMenuTrigger>
        <DropdownMenuContent onCloseAutoFocus={onCloseAutoFocus}>
          {showRename && <DropdownMenuItem onSelect={() => openDialog('rename')}>Rename…</DropdownMenuItem>}
          {admin && (
            <>
              <DropdownMenuItem onSelect={() => openDialog('move')}>Move to…</DropdownMenuItem>
              <DropdownMenuItem
                disabled={!previous}
                onSelect={() => previous && reorder({ before: { type: 'space', space: previous.id } })}
              >
                Move up
              </DropdownMenuItem>
              <DropdownMenuItem
                disabled={!next}
                onSelect={() => next && reorder({ after: { type: 'space', space: next.id } })}
              >
                Move down
              </DropdownMenuItem>
            </>
          )}
          <DropdownMenuItem
            disabled={duplicate.isPending}
            onSelect={() =>
              duplicate.mutate(undefined, {
                onSuccess: (copy) => toast.show(`Duplicated as “${copy.title || SPACE_UNTITLED}”`),
                onError: (error) => toast.show(errorMessage(error), 'error'),
              })
            }
          >
            Duplicate
          </DropdownMenuItem>
          {admin && (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem danger icon={<TrashIcon />} onSelect={() => openDialog('delete')}>
                Delete…
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <RenameSpaceDialog space={space} {...dialog('rename')} />
      <MoveDialog item={{ type: 'space', space }} {...dialog('move')} />
      <DeleteSpaceDialog space={space} {...dialog('delete')} onDeleted={onDeleted} />
    </>
  );
}
