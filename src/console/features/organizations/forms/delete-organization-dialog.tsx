import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { RefObject } from 'react';
import type { Organization } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogClose, DialogFooter } from '../../../components/ui/dialog';
import { fieldDescribedBy, FieldFrame } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useDeleteOrganization } from '../api/delete-organization';
import '../organizations.css';

interface Props {
  organization: Organization;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/**
 * Deleting an organization for good, once its name is typed exactly. Then the console opens another of the
 * person's organizations, or the screen that creates one when none is left.
 */
export function DeleteOrganizationDialog({ organization, open, onOpenChange, returnFocusRef }: Props) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const remove = useDeleteOrganization(organization.id);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const matches = typed === organization.title;
  const change = (next: boolean) => {
    if (remove.isPending) return;
    if (!next) {
      setTyped('');
      remove.reset();
    }
    onOpenChange(next);
  };
  const confirm = async () => {
    if (!matches) return;
    try {
      await remove.mutateAsync();
    } catch {
      return; // shown below, the dialog stays open
    }
    // The list is read again on the way to "/", which opens the first organization left (or offers to create one);
    // the deleted organization's own data is dropped once the page has left it.
    queryClient.removeQueries({ queryKey: queryKeys.organizations.list() });
    await navigate({ to: '/', replace: true });
    queryClient.removeQueries({ queryKey: queryKeys.organizations.detail(organization.id) });
    toast.show(`${organization.title} was deleted`);
  };
  const hint = (
    <>
      Type <strong className="confirm-phrase">{organization.title}</strong> to confirm.
    </>
  );
  return (
    <Dialog
      open={open}
      onOpenChange={change}
      title="Delete this organization?"
      returnFocusRef={returnFocusRef}
      role="alertdialog"
    >
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void confirm();
        }}
      >
        <div className="dialog-body">
          <p>
            <strong>{organization.title}</strong> and everything in it will be deleted for good, at once: its
            collections and spaces (those in the trash too) with their pages, change requests and comments, its sites,
            which stop being published, its API specifications, teams, invite links, pending invitations, e-mail
            domains, single sign-on providers and installed integrations. This cannot be undone.
          </p>
          <p>
            Its members lose access, but their accounts stay, with their other organizations, sign-ins and API tokens.
          </p>
        </div>
        <FieldFrame id={`${id}-confirm`} label="Name of the organization" hint={hint}>
          <input
            id={`${id}-confirm`}
            className="input"
            type="text"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={fieldDescribedBy(`${id}-confirm`, { hint })}
          />
        </FieldFrame>
        <FormError message={remove.isError ? errorMessage(remove.error) : undefined} />
        <DialogFooter>
          <DialogClose asChild>
            <Button disabled={remove.isPending}>Cancel</Button>
          </DialogClose>
          <Button type="submit" variant="danger" disabled={!matches} loading={remove.isPending}>
            Delete organization
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
