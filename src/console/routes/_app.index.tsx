import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { PlainLayout } from '../components/layout/app-shell';
import { Button } from '../components/ui/button';
import { PlusIcon } from '../components/ui/icons';
import { DocumentTitle } from '../components/ui/page';
import { EmptyState } from '../components/ui/states';
import { organizationsQueryOptions } from '../features/organizations/api/get-organizations';
import { CreateOrganizationDialog } from '../features/organizations/forms/create-organization-dialog';

/** `/`: straight to the first organization, or an invitation to create one. */
export const Route = createFileRoute('/_app/')({
  loader: async ({ context }) => {
    const [first] = await context.queryClient.ensureQueryData(organizationsQueryOptions());
    if (first) throw redirect({ to: '/o/$organizationId', params: { organizationId: first.id }, replace: true });
  },
  component: Welcome,
});

function Welcome() {
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
