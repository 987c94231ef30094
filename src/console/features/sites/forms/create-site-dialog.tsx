import type { RefObject } from 'react';
import { SITE_BATCH_MAX, SITE_TITLE_MAX, siteTitleSchema } from '../../../../shared/contract';
import type { Space } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { CheckboxGroupField, SelectField, TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useCreateSite } from '../api/create-site';
import { createSiteBodySchema } from '../../../../shared/contract';
import { siteVisibilityOptions, SPACE_UNTITLED } from '../utils/labels';

/** The console asks for a title (the API would name it "Untitled site"). */
const createSiteFormSchema = createSiteBodySchema.extend({ title: siteTitleSchema });

interface Props {
  organizationId: string;
  /** The organization's spaces, to choose what the site shows. */
  spaces: Space[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
  /** Runs with the new site's id, e.g. to open it. */
  onCreated?: (siteId: string) => void;
}

export function CreateSiteDialog({ organizationId, spaces, open, onOpenChange, returnFocusRef, onCreated }: Props) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New site"
      description="A site publishes spaces for readers. You can add sections and more spaces later."
      returnFocusRef={returnFocusRef}
    >
      <CreateSiteForm
        organizationId={organizationId}
        spaces={spaces}
        onDone={(siteId) => {
          onOpenChange(false);
          onCreated?.(siteId);
        }}
      />
    </Dialog>
  );
}

function CreateSiteForm({
  organizationId,
  spaces,
  onDone,
}: {
  organizationId: string;
  spaces: Space[];
  onDone: (siteId: string) => void;
}) {
  const form = useZodForm(createSiteFormSchema, {
    defaultValues: { title: '', visibility: 'public', spaces: [] },
  });
  const create = useCreateSite(organizationId);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async (body) => {
    try {
      const site = await create.mutateAsync(body);
      toast.show(`Site “${site.title}” created`);
      onDone(site.id);
    } catch (error) {
      showServerError(form, error, ['title', 'visibility', 'spaces']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Create site">
      <TextField control={form.control} name="title" label="Title" max={SITE_TITLE_MAX} autoComplete="off" required />
      <SelectField control={form.control} name="visibility" label="Visibility" options={siteVisibilityOptions} />
      <CheckboxGroupField
        control={form.control}
        name="spaces"
        label="Spaces to publish"
        hint={`In the order shown; at most ${SITE_BATCH_MAX}. The first one opens the site.`}
        empty="This organization has no spaces yet: create the site now and add spaces once there are some."
        options={spaces.map((space) => ({
          value: space.id,
          label: `${space.emoji ? `${space.emoji} ` : ''}${space.title || SPACE_UNTITLED}`,
        }))}
      />
    </DialogForm>
  );
}
