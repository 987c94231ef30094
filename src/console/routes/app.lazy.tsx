import { Outlet, useNavigate, useParams } from '@tanstack/react-router';
import { AppShell, PlainLayout } from '../components/layout/app-shell';
import { UserMenu } from '../features/auth/components/user-menu';
import { OrganizationSwitcher } from '../features/organizations/components/org-switcher';
import { NotFoundState } from './root';

export function AppLayout() {
  const { organizationId } = useParams({ strict: false });
  const navigate = useNavigate();
  return (
    <AppShell
      switcher={<OrganizationSwitcher organizationId={organizationId} />}
      account={<UserMenu onSignedOut={() => navigate({ to: '/login' })} />}
    >
      <Outlet />
    </AppShell>
  );
}

export function AppNotFound() {
  return (
    <PlainLayout>
      <NotFoundState />
    </PlainLayout>
  );
}
