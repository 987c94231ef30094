import { useNavigate } from '@tanstack/react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  useMenuDialogs,
} from '../../../components/ui/dropdown-menu';
import { ChevronDownIcon, PlusIcon } from '../../../components/ui/icons';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { useOrganizations } from '../api/get-organizations';
import '../organizations.css';

const CreateOrganizationDialog = lazyDialog(() =>
  import('../forms/create-organization-dialog').then((m) => m.CreateOrganizationDialog),
);

/** Which organization the console shows; also where a new one is created. */
export function OrganizationSwitcher({ organizationId }: { organizationId?: string }) {
  const organizations = useOrganizations();
  const navigate = useNavigate();
  const { trigger, openDialog, onCloseAutoFocus, dialog } = useMenuDialogs<'create'>();
  const creating = dialog('create');
  const current = organizations.find((organization) => organization.id === organizationId);

  const open = (id: string) => void navigate({ to: '/o/$organizationId', params: { organizationId: id } });

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          ref={trigger}
          className="btn btn-ghost org-trigger"
          // The visible title first (what a voice-control user says), then what the button does.
          aria-label={`${current?.title ?? 'Choose an organization'}: switch organization`}
        >
          {/* The initial is drawn by CSS (data-initial), so the visible text is the title alone, as in the name. */}
          <span
            className="org-badge"
            aria-hidden="true"
            data-initial={(current?.title ?? '?').slice(0, 1).toUpperCase()}
          />
          <span className="org-trigger-title">{current?.title ?? 'Choose an organization'}</span>
          <ChevronDownIcon />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" onCloseAutoFocus={onCloseAutoFocus}>
          <DropdownMenuLabel>Organizations</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={organizationId ?? ''} onValueChange={open}>
            {organizations.map((organization) => (
              <DropdownMenuRadioItem key={organization.id} value={organization.id}>
                {organization.title}
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          {organizations.length > 0 && <DropdownMenuSeparator />}
          <DropdownMenuItem icon={<PlusIcon />} onSelect={() => openDialog('create')}>
            New organization…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <CreateOrganizationDialog
        {...creating}
        onCreated={(organization) => {
          creating.onOpenChange(false);
          open(organization.id);
        }}
      />
    </>
  );
}
