import { useQuery } from '@tanstack/react-query';
import { createRoute, Link, Outlet } from '@tanstack/react-router';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { organizationParamsSchema } from '../../shared/contract';
import { PlainLayout, SidebarLayout } from '../components/layout/app-shell';
import { buttonClass } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page';
import { NotFoundState } from './root';
import { ErrorState } from '../components/ui/states';
import { SsoRequired } from '../features/auth/components/sso-required';
import { organizationQueryOptions } from '../features/organizations/api/get-organization';
import { organizationsQueryOptions } from '../features/organizations/api/get-organizations';
import { OrganizationNav } from '../features/organizations/components/org-nav';
import { usePresence } from '../features/organizations/api/ping';
import { isApiError, isSsoRequired } from '../lib/api-client';
import { appRoute } from './app';
import { CommandPalette, usePaletteShortcut } from '../features/search/components/command-palette';
import { SearchIcon } from '../components/ui/icons';
import { useCallback, useState } from 'react';

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
  const [searching, setSearching] = useState(false);
  const toggle = useCallback(() => setSearching((open) => !open), []);
  usePaletteShortcut(toggle);
  return (
    <SidebarLayout
      sidebar={
        <>
          <button type="button" className="sidebar-search" onClick={() => setSearching(true)}>
            <SearchIcon /> <span>Search</span>
            <kbd aria-label={`${shortcutModifier()} K`}>{shortcutModifier() === 'Command' ? '⌘K' : 'Ctrl K'}</kbd>
          </button>
          <OrganizationNav organizationId={organizationId} />
        </>
      }
    >
      <Outlet />
      <CommandPalette organizationId={organizationId} open={searching} onOpenChange={setSearching} />
    </SidebarLayout>
  );
}

/** The key that goes with K to open search: Command on Apple systems, Control elsewhere. */
function shortcutModifier(): 'Command' | 'Control' {
  return /Mac|iPhone|iPad/.test(navigator.platform) ? 'Command' : 'Control';
}

/**
 * The organization enforces single sign-on and this session did not come through its provider: its name (from the
 * list of the caller's organizations, which the refusal does not hide) and the way in.
 */
export function SsoRequiredState({ organizationId }: { organizationId: string }) {
  const organizations = useQuery(organizationsQueryOptions());
  const title = organizations.data?.find((organization) => organization.id === organizationId)?.title;
  return (
    <>
      <DocumentTitle>{title ? `${title} requires single sign-on` : 'Single sign-on required'}</DocumentTitle>
      <SsoRequired organizationId={organizationId} title={title} />
    </>
  );
}

function OrganizationError({ error, reset }: ErrorComponentProps) {
  const { organizationId } = organizationRoute.useParams();
  if (isSsoRequired(error)) {
    return (
      <PlainLayout>
        <SsoRequiredState organizationId={organizationId} />
      </PlainLayout>
    );
  }
  return <OrganizationMissing error={error} reset={reset} />;
}

function OrganizationMissing({ error, reset }: Pick<ErrorComponentProps, 'error' | 'reset'>) {
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

/** An address under the organization that no screen answers: "not found" beside the organization's sidebar. */
export const organizationNotFoundRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: '$',
  component: NotFoundState,
});
