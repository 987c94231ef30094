import type { RefObject } from 'react';
import { COLLECTION_TITLE_MAX } from '../../../../shared/contract';
import type { Collection } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useCreateCollection } from '../api/create-collection';
import { createCollectionBodySchema } from '../../../../shared/contract';

interface Props {
  organizationId: string;
  /** The collection to create it in; the organization root when absent. */
  parent?: Collection;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

export function CreateCollectionDialog({ organizationId, parent, open, onOpenChange, returnFocusRef }: Props) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New collection"
      description={
        parent ? `Inside “${parent.title}”. Collections group related spaces.` : 'Collections group related spaces.'
      }
      returnFocusRef={returnFocusRef}
    >
      <CreateCollectionForm organizationId={organizationId} parent={parent} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function CreateCollectionForm({
  organizationId,
  parent,
  onDone,
}: {
  organizationId: string;
  parent?: Collection;
  onDone: () => void;
}) {
  const form = useZodForm(createCollectionBodySchema, { defaultValues: { title: '', parent: parent?.id } });
  const create = useCreateCollection(organizationId);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const collection = await create.mutateAsync(values);
      toast.show(`Collection “${collection.title}” created`);
      onDone();
    } catch (error) {
      showServerError(form, error, ['title']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Create collection">
      <TextField
        control={form.control}
        name="title"
        label="Title"
        placeholder="e.g. Product guides"
        max={COLLECTION_TITLE_MAX}
        autoComplete="off"
        required
      />
    </DialogForm>
  );
}
