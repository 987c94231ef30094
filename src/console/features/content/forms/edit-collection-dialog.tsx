import type { RefObject } from 'react';
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_TITLE_MAX } from '../../../../shared/contract';
import type { Collection, UpdateCollectionBody } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { TextareaField, TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { changedFields, showServerError, useZodForm } from '../../../lib/form';
import { useUpdateCollection } from '../api/update-collection';
import { updateCollectionBodySchema } from '../../../../shared/contract';

interface Props {
  collection: Collection;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/** Rename a collection and describe it. */
export function EditCollectionDialog({ collection, open, onOpenChange, returnFocusRef }: Props) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Rename collection" returnFocusRef={returnFocusRef}>
      <EditCollectionForm collection={collection} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function EditCollectionForm({ collection, onDone }: { collection: Collection; onDone: () => void }) {
  const form = useZodForm(updateCollectionBodySchema, {
    defaultValues: { title: collection.title, description: collection.description ?? '' },
  });
  const update = useUpdateCollection(collection);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async (values) => {
    const body: UpdateCollectionBody | null = changedFields(form, values);
    if (!body) return onDone();
    try {
      await update.mutateAsync(body);
      toast.show('Collection saved');
      onDone();
    } catch (error) {
      showServerError(form, error, ['title', 'description']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Save">
      <TextField
        control={form.control}
        name="title"
        label="Title"
        max={COLLECTION_TITLE_MAX}
        autoComplete="off"
        required
      />
      <TextareaField
        control={form.control}
        name="description"
        label="Description"
        placeholder="What this collection is for (optional)"
        max={COLLECTION_DESCRIPTION_MAX}
      />
    </DialogForm>
  );
}
