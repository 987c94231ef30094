import type { RefObject } from 'react';
import type { Collection, Space } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { SelectField } from '../../../components/ui/field';
import type { SelectOption } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useCollections } from '../api/get-collections';
import { useMoveCollection } from '../api/move-collection';
import { moveBodySchema } from '../../../../shared/contract';
import { useMoveSpace } from '../api/move-space';
import { descendantCollectionIds, flattenCollections } from '../utils/tree';
import '../content.css';

export type MovedItem = { type: 'space'; space: Space } | { type: 'collection'; collection: Collection };

interface Props {
  item: MovedItem;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/** Choose where a space or a collection goes: the organization root or a collection. */
export function MoveDialog({ item, open, onOpenChange, returnFocusRef }: Props) {
  const title = item.type === 'space' ? item.space.title : item.collection.title;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={item.type === 'space' ? 'Move space' : 'Move collection'}
      description={`Choose where “${title}” goes.`}
      returnFocusRef={returnFocusRef}
    >
      {item.type === 'space' ? (
        <MoveSpaceForm space={item.space} onDone={() => onOpenChange(false)} />
      ) : (
        <MoveCollectionForm collection={item.collection} onDone={() => onOpenChange(false)} />
      )}
    </Dialog>
  );
}

function MoveSpaceForm({ space, onDone }: { space: Space; onDone: () => void }) {
  const move = useMoveSpace(space);
  return (
    <MoveForm organizationId={space.organization} current={space.parent} mutate={move.mutateAsync} onDone={onDone} />
  );
}

function MoveCollectionForm({ collection, onDone }: { collection: Collection; onDone: () => void }) {
  const move = useMoveCollection(collection);
  return (
    <MoveForm
      organizationId={collection.organization}
      current={collection.parent}
      excluded={collection.id}
      mutate={move.mutateAsync}
      onDone={onDone}
    />
  );
}

const INDENT = '\u00a0\u00a0\u00a0\u00a0';

function MoveForm({
  organizationId,
  current,
  excluded,
  mutate,
  onDone,
}: {
  organizationId: string;
  current: string | undefined;
  /** A collection cannot go into itself or anything inside it. */
  excluded?: string;
  mutate: (body: { parent: string | null }) => Promise<unknown>;
  onDone: () => void;
}) {
  const collections = useCollections(organizationId);
  const toast = useToast();
  const form = useZodForm(moveBodySchema, { defaultValues: { parent: current ?? null } });
  const forbidden = excluded ? new Set([excluded, ...descendantCollectionIds(collections, excluded)]) : new Set();
  const options: SelectOption[] = [
    { value: null, label: 'Organization root (top level)' },
    ...flattenCollections(collections)
      .filter(({ collection }) => !forbidden.has(collection.id))
      .map(({ collection, depth }) => ({
        value: collection.id,
        label: `${INDENT.repeat(depth)}${collection.title}`,
        disabled: !collection.permissions.create,
      })),
  ];

  const onSubmit = form.handleSubmit(async ({ parent }) => {
    const destination = parent ?? null;
    if (destination === (current ?? null)) {
      form.setError('parent', { type: 'unchanged', message: 'It is already there. Choose another place.' });
      return;
    }
    try {
      await mutate({ parent: destination });
      const where = destination ? collections.find((c) => c.id === destination)?.title : undefined;
      toast.show(where ? `Moved into “${where}”` : 'Moved to the top level');
      onDone();
    } catch (error) {
      showServerError(form, error, ['parent']);
    }
  });

  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Move">
      <SelectField control={form.control} name="parent" label="Destination" options={options} />
    </DialogForm>
  );
}
