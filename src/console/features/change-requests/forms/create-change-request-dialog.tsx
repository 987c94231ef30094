import type { RefObject } from 'react';
import { CHANGE_REQUEST_SUBJECT_MAX } from '../../../../shared/contract';
import type { ChangeRequest } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { showServerError, useZodForm } from '../../../lib/form';
import { useCreateChangeRequest } from '../api/create-change-request';
import { createChangeRequestBodySchema } from '../../../../shared/contract';
import '../change-requests.css';

interface Props {
  spaceId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
  onCreated: (changeRequest: ChangeRequest) => void;
}

/** Starts a change request on the space's current content, with an optional subject. */
export function CreateChangeRequestDialog({ spaceId, open, onOpenChange, returnFocusRef, onCreated }: Props) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New change request"
      description="Edit pages in it, ask for a review, then merge it into the space."
      returnFocusRef={returnFocusRef}
    >
      <CreateForm spaceId={spaceId} onCreated={onCreated} />
    </Dialog>
  );
}

function CreateForm({ spaceId, onCreated }: Pick<Props, 'spaceId' | 'onCreated'>) {
  const form = useZodForm(createChangeRequestBodySchema, { defaultValues: { subject: '' } });
  const create = useCreateChangeRequest(spaceId);
  const onSubmit = form.handleSubmit(async (body) => {
    try {
      onCreated(await create.mutateAsync(body.subject ? body : {}));
    } catch (error) {
      showServerError(form, error, ['subject']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Create change request">
      <TextField
        control={form.control}
        name="subject"
        label="Subject"
        hint="What the change is about, e.g. “Document the new export”. You can change it later."
        max={CHANGE_REQUEST_SUBJECT_MAX}
        autoComplete="off"
      />
    </DialogForm>
  );
}
