import { createRoute, Link, Outlet } from '@tanstack/react-router';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { organizationParamsSchema } from '../../shared/contract';
import { PlainLayout, SidebarLayout } from '../components/layout/app-shell';
import { buttonClass } from '../components/ui/button';
import { ErrorState } from '../components/ui/states';
import { organizationQueryOptions } from '../features/organizations/api/get-organization';
import { OrganizationNav } from '../features/organizations/components/org-nav';
import { usePresence } from '../features/organizations/api/ping';
import { isApiError } from '../lib/api-client';
import { appRoute } from './app';

export const organizationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/o/$organizationId',
  params: { parse: (params) => organizationParamsSchema.parse(params) },
  loader: ({ context, params }) => context.queryClient.ensureQueryData(organizationQueryOptions(params.organizationId)),
  component: OrganizationLayout,
  errorComponent: OrganizationError,
});

function OrganizationLayout() {
  const { organizationId } = organizationRoute.useParams();
  usePresence(organizationId);
  return (
    <SidebarLayout sidebar={<OrganizationNav organizationId={organizationId} />}>
      <Outlet />
    </SidebarLayout>
  );
}

function OrganizationError({ error, reset }: ErrorComponentProps) {
  const missing = isApiError(error, 404) || isApiError(error, 403);
  return (
    <PlainLayout>
      <ErrorState
        error={error}
        title={missing ? 'Organization not found' : undefined}
        message={missing ? 'It does not exist, or you are not one of its members.' : undefined}
        onRetry={missing ? undefined : reset}
        action={
          <Link to="/" className={buttonClass('secondary')}>
            Go to your organizations
          </Link>
        }
      />
    </PlainLayout>
  );
}
