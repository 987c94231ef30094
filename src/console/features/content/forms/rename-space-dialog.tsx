import type { RefObject } from 'react';
import { SPACE_TITLE_MAX } from '../../../../shared/contract';
import type { Space } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useUpdateSpace } from '../api/update-space';
import { updateSpaceBodySchema } from '../../../../shared/contract';

interface Props {
  space: Space;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

export function RenameSpaceDialog({ space, open, onOpenChange, returnFocusRef }: Props) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Rename space" returnFocusRef={returnFocusRef}>
      <RenameSpaceForm space={space} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function RenameSpaceForm({ space, onDone }: { space: Space; onDone: () => void }) {
  const form = useZodForm(updateSpaceBodySchema, { defaultValues: { title: space.title } });
  const update = useUpdateSpace(space);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async ({ title }) => {
    if (title === space.title) return onDone();
    try {
      await update.mutateAsync({ title });
      toast.show(`Space renamed to “${title ?? ''}”`);
      onDone();
    } catch (error) {
      showServerError(form, error, ['title']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Rename">
      <TextField control={form.control} name="title" label="Title" max={SPACE_TITLE_MAX} autoComplete="off" required />
    </DialogForm>
  );
}
