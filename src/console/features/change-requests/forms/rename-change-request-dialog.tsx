import type { RefObject } from 'react';
import { CHANGE_REQUEST_SUBJECT_MAX } from '../../../../shared/contract';
import type { ChangeRequest } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useUpdateChangeRequest } from '../api/update-change-request';
import { updateChangeRequestBodySchema } from '../../../../shared/contract';

const subjectSchema = updateChangeRequestBodySchema.pick({ subject: true });

interface Props {
  changeRequest: ChangeRequest;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

export function RenameChangeRequestDialog({ changeRequest, open, onOpenChange, returnFocusRef }: Props) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Change the subject" returnFocusRef={returnFocusRef}>
      <SubjectForm changeRequest={changeRequest} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function SubjectForm({ changeRequest, onDone }: { changeRequest: ChangeRequest; onDone: () => void }) {
  const form = useZodForm(subjectSchema, { defaultValues: { subject: changeRequest.subject } });
  const update = useUpdateChangeRequest(changeRequest.space, changeRequest.number);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async ({ subject }) => {
    if ((subject ?? '') === changeRequest.subject) return onDone();
    try {
      await update.mutateAsync({ subject: subject ?? '' });
      toast.show('Subject changed');
      onDone();
    } catch (error) {
      showServerError(form, error, ['subject']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Save">
      <TextField
        control={form.control}
        name="subject"
        label="Subject"
        max={CHANGE_REQUEST_SUBJECT_MAX}
        autoComplete="off"
      />
    </DialogForm>
  );
}
