import { useRef, useState } from 'react';
import { createInviteLinkBodySchema } from '../../../../shared/contract';
import type { InviteLink } from '../../../../shared/contract';
import { Button, IconButton } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyField } from '../../../components/ui/copy-field';
import { SelectField } from '../../../components/ui/field';
import { PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, FormError, Loading } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { ROLE_SELECT_OPTIONS, roleLabel } from '../../../lib/roles';
import { useCreateInviteLink } from '../api/create-invite-link';
import { useDeleteInviteLink } from '../api/delete-invite-link';
import { useInviteLinks } from '../api/get-invite-links';
import { inviteUrl } from '../utils/invite';
import '../members.css';

/** Links anyone can follow to join the organization with a role; admins create, copy and delete them. */
export function InviteLinks({
  organizationId,
  canManage,
  canCreate = canManage,
}: {
  organizationId: string;
  canManage: boolean;
  /** False while the organization has invite links turned off (existing links are kept, and may be deleted). */
  canCreate?: boolean;
}) {
  const links = useInviteLinks(organizationId);
  return (
    <div className="section">
      {canCreate && <CreateInviteLinkForm organizationId={organizationId} />}
      {links.isPending ? (
        <Loading label="Loading invite links…" />
      ) : links.isError ? (
        <ErrorState error={links.error} onRetry={() => void links.refetch()} />
      ) : links.data.length === 0 ? (
        <EmptyState title="No invite link">
          {canManage ? 'Create a link and share it with the people you want in.' : 'Admins create invite links.'}
        </EmptyState>
      ) : (
        <ul className="invite-list" aria-label="Invite links">
          {links.data.map((link) => (
            <InviteLinkItem key={link.id} link={link} organizationId={organizationId} canManage={canManage} />
          ))}
        </ul>
      )}
    </div>
  );
}

function CreateInviteLinkForm({ organizationId }: { organizationId: string }) {
  const form = useZodForm(createInviteLinkBodySchema, { defaultValues: { role: 'read' } });
  const create = useCreateInviteLink(organizationId);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const link = await create.mutateAsync(values);
      toast.show(`Invite link for ${roleLabel(link.role).toLowerCase()}s created`);
    } catch (error) {
      showServerError(form, error, ['role']);
    }
  });
  return (
    <form className="card invite-form" onSubmit={onSubmit} noValidate aria-label="New invite link">
      <FormError message={form.formState.errors.root?.server?.message} />
      <div className="inline-form">
        <SelectField control={form.control} name="role" label="Role of people who join" options={ROLE_SELECT_OPTIONS} />
        <Button type="submit" variant="primary" loading={form.formState.isSubmitting}>
          <PlusIcon /> Create invite link
        </Button>
      </div>
    </form>
  );
}

function InviteLinkItem({
  link,
  organizationId,
  canManage,
}: {
  link: InviteLink;
  organizationId: string;
  canManage: boolean;
}) {
  const remove = useDeleteInviteLink(organizationId);
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const url = inviteUrl(window.location.origin, organizationId, link.id);
  const role = roleLabel(link.role);
  return (
    <li className="invite-item">
      <div className="invite-item-text">
        <CopyField label={`Invite link (${role})`} value={url} />
      </div>
      {canManage && (
        <>
          <IconButton ref={button} label={`Delete invite link (${role})`} onClick={() => setConfirming(true)}>
            <TrashIcon />
          </IconButton>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            returnFocusRef={button}
            title="Delete invite link?"
            confirmLabel="Delete link"
            action={async () => {
              await remove.mutateAsync(link);
              toast.show('Invite link deleted');
            }}
          >
            <p>Nobody can join through this link any more. People who joined with it stay members.</p>
          </ConfirmDialog>
        </>
      )}
    </li>
  );
}
