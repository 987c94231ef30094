import type { RefObject } from 'react';
import { SPACE_TITLE_MAX } from '../../../../shared/contract';
import type { Collection, CreateSpaceBody } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { SelectField, TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useCreateSpace } from '../api/create-space';
import { createSpaceBodySchema } from '../../../../shared/contract';
import { editModeOptions, SPACE_UNTITLED } from '../utils/labels';
import { EmojiField } from './emoji-field';
import '../content.css';

interface Props {
  organizationId: string;
  /** The collection to create it in; the organization root when absent. */
  parent?: Collection;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

export function CreateSpaceDialog({ organizationId, parent, open, onOpenChange, returnFocusRef }: Props) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New space"
      description={
        parent
          ? `Inside “${parent.title}”. A space holds pages of documentation.`
          : 'A space holds pages of documentation.'
      }
      returnFocusRef={returnFocusRef}
    >
      <CreateSpaceForm organizationId={organizationId} parent={parent} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function CreateSpaceForm({
  organizationId,
  parent,
  onDone,
}: {
  organizationId: string;
  parent?: Collection;
  onDone: () => void;
}) {
  const form = useZodForm(createSpaceBodySchema, {
    defaultValues: { title: '', emoji: '', parent: parent?.id, editMode: 'live' },
  });
  const create = useCreateSpace(organizationId);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async ({ emoji, ...values }) => {
    const body: CreateSpaceBody = { ...values, ...(emoji ? { emoji } : {}) };
    try {
      const space = await create.mutateAsync(body);
      toast.show(`Space “${space.title || SPACE_UNTITLED}” created`);
      onDone();
    } catch (error) {
      showServerError(form, error, ['title', 'emoji', 'editMode']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Create space">
      <TextField
        control={form.control}
        name="title"
        label="Title"
        placeholder={SPACE_UNTITLED}
        max={SPACE_TITLE_MAX}
        autoComplete="off"
      />
      <EmojiField control={form.control} name="emoji" />
      <SelectField control={form.control} name="editMode" label="Edit mode" options={editModeOptions} />
    </DialogForm>
  );
}
