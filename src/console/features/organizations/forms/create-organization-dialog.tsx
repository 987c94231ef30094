import type { RefObject } from 'react';
import { ORG_TITLE_MAX } from '../../../../shared/contract';
import type { Organization } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { showServerError, useZodForm } from '../../../lib/form';
import { useCreateOrganization } from '../api/create-organization';
import { createOrganizationBodySchema } from '../../../../shared/contract';

export function CreateOrganizationDialog({
  open,
  onOpenChange,
  onCreated,
  returnFocusRef,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (organization: Organization) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New organization"
      description="An organization holds your collections and spaces, and the people who work on them."
      returnFocusRef={returnFocusRef}
    >
      <CreateOrganizationForm onCreated={onCreated} />
    </Dialog>
  );
}

function CreateOrganizationForm({ onCreated }: { onCreated: (organization: Organization) => void }) {
  const form = useZodForm(createOrganizationBodySchema, { defaultValues: { title: '' } });
  const create = useCreateOrganization();
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      onCreated(await create.mutateAsync(values));
    } catch (error) {
      showServerError(form, error);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Create organization">
      <TextField
        control={form.control}
        name="title"
        label="Name"
        placeholder="Acme Inc."
        max={ORG_TITLE_MAX}
        required
      />
    </DialogForm>
  );
}
