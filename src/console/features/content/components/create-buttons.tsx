import { useRef, useState } from 'react';
import type { Collection } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { DocIcon, FolderIcon } from '../../../components/ui/icons';
import { lazyDialog } from '../../../components/ui/lazy-dialog';

const CreateCollectionDialog = lazyDialog(() =>
  import('../forms/create-collection-dialog').then((m) => m.CreateCollectionDialog),
);
const CreateSpaceDialog = lazyDialog(() => import('../forms/create-space-dialog').then((m) => m.CreateSpaceDialog));

/** "New collection" and "New space", at the organization root or inside `parent`. */
export function CreateButtons({ organizationId, parent }: { organizationId: string; parent?: Collection }) {
  const [open, setOpen] = useState<'space' | 'collection' | null>(null);
  const collectionButton = useRef<HTMLButtonElement>(null);
  const spaceButton = useRef<HTMLButtonElement>(null);
  const close = (value: boolean) => !value && setOpen(null);
  return (
    <>
      <Button ref={collectionButton} onClick={() => setOpen('collection')}>
        <FolderIcon /> New collection
      </Button>
      <Button ref={spaceButton} variant="primary" onClick={() => setOpen('space')}>
        <DocIcon /> New space
      </Button>
      <CreateCollectionDialog
        organizationId={organizationId}
        parent={parent}
        open={open === 'collection'}
        onOpenChange={close}
        returnFocusRef={collectionButton}
      />
      <CreateSpaceDialog
        organizationId={organizationId}
        parent={parent}
        open={open === 'space'}
        onOpenChange={close}
        returnFocusRef={spaceButton}
      />
    </>
  );
}
