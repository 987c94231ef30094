import { useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { ChevronDownIcon, PlusIcon } from '../../../components/ui/icons';
import { useOrganizations } from '../api/get-organizations';
import { CreateOrganizationDialog } from '../forms/create-organization-dialog';

/** Which organization the console shows; also where a new one is created. */
export function OrganizationSwitcher({ organizationId }: { organizationId?: string }) {
  const organizations = useOrganizations();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const current = organizations.find((organization) => organization.id === organizationId);

  const open = (id: string) => void navigate({ to: '/o/$organizationId', params: { organizationId: id } });

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger ref={trigger} className="btn btn-ghost org-trigger" aria-label="Switch organization">
          <span className="org-badge" aria-hidden="true">
            {(current?.title ?? '?').slice(0, 1).toUpperCase()}
          </span>
          <span className="org-trigger-title">{current?.title ?? 'Choose an organization'}</span>
          <ChevronDownIcon />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start">
          <DropdownMenuLabel>Organizations</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={organizationId ?? ''} onValueChange={open}>
            {organizations.map((organization) => (
              <DropdownMenuRadioItem key={organization.id} value={organization.id}>
                {organization.title}
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          {organizations.length > 0 && <DropdownMenuSeparator />}
          <DropdownMenuItem icon={<PlusIcon />} onSelect={() => setCreating(true)}>
            New organization…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <CreateOrganizationDialog
        open={creating}
        onOpenChange={setCreating}
        returnFocusRef={trigger}
        onCreated={(organization) => {
          setCreating(false);
          open(organization.id);
        }}
      />
    </>
  );
}
