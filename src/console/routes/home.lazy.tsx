import { useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { PlainLayout } from '../components/layout/app-shell';
import { Button } from '../components/ui/button';
import { PlusIcon } from '../components/ui/icons';
import { DocumentTitle } from '../components/ui/page';
import { EmptyState } from '../components/ui/states';
import { CreateOrganizationDialog } from '../features/organizations/forms/create-organization-dialog';

export function Welcome() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();
  return (
    <PlainLayout>
      <DocumentTitle>Welcome</DocumentTitle>
      <EmptyState
        title="Create your first organization"
        action={
          <Button ref={button} variant="primary" onClick={() => setOpen(true)}>
            <PlusIcon /> New organization
          </Button>
        }
      >
        You are not a member of any organization yet. Create one to start organizing collections and spaces, or ask an
        administrator to invite you.
      </EmptyState>
      <CreateOrganizationDialog
        open={open}
        onOpenChange={setOpen}
        returnFocusRef={button}
        onCreated={(organization) => {
          setOpen(false);
          void navigate({ to: '/o/$organizationId', params: { organizationId: organization.id } });
        }}
      />
    </PlainLayout>
  );
}
