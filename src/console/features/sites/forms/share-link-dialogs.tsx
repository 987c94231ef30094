import type { RefObject } from 'react';
import { SHARE_LINK_NAME_MAX } from '../../../../shared/contract';
import type { ShareLink } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useCreateShareLink } from '../api/create-share-link';
import { createShareLinkBodySchema } from '../../../../shared/contract';
import { useUpdateShareLink } from '../api/update-share-link';
import { updateShareLinkBodySchema } from '../../../../shared/contract';
import type { SiteRef } from '../utils/paths';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

export function CreateShareLinkDialog({ site, ...props }: DialogProps & { site: SiteRef }) {
  return (
    <Dialog
      {...props}
      title="New share link"
      description="Whoever has the link can read the site, until you deactivate or delete it."
    >
      <CreateShareLinkForm site={site} onDone={() => props.onOpenChange(false)} />
    </Dialog>
  );
}

function CreateShareLinkForm({ site, onDone }: { site: SiteRef; onDone: () => void }) {
  const form = useZodForm(createShareLinkBodySchema, { defaultValues: { name: '' } });
  const create = useCreateShareLink(site);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async ({ name }) => {
    try {
      await create.mutateAsync(name ? { name } : {});
      toast.show(name ? `Share link “${name}” created` : 'Share link created');
      onDone();
    } catch (error) {
      showServerError(form, error, ['name']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Create link">
      <TextField
        control={form.control}
        name="name"
        label="Name"
        hint="Who it is for, e.g. “Beta testers”. Readers do not see it."
        max={SHARE_LINK_NAME_MAX}
        autoComplete="off"
      />
    </DialogForm>
  );
}

export function RenameShareLinkDialog({ site, link, ...props }: DialogProps & { site: SiteRef; link: ShareLink }) {
  return (
    <Dialog {...props} title="Rename share link">
      <RenameShareLinkForm site={site} link={link} onDone={() => props.onOpenChange(false)} />
    </Dialog>
  );
}

function RenameShareLinkForm({ site, link, onDone }: { site: SiteRef; link: ShareLink; onDone: () => void }) {
  const form = useZodForm(updateShareLinkBodySchema, { defaultValues: { name: link.name ?? '' } });
  const update = useUpdateShareLink(site);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async ({ name }) => {
    if ((name ?? '') === (link.name ?? '')) return onDone();
    try {
      await update.mutateAsync({ shareLinkId: link.id, body: { name } });
      toast.show('Share link renamed');
      onDone();
    } catch (error) {
      showServerError(form, error, ['name']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Rename">
      <TextField control={form.control} name="name" label="Name" max={SHARE_LINK_NAME_MAX} autoComplete="off" />
    </DialogForm>
  );
}
