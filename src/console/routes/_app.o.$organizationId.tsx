import { createFileRoute, Link, Outlet } from '@tanstack/react-router';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { PlainLayout, SidebarLayout } from '../components/layout/app-shell';
import { buttonClass } from '../components/ui/button';
import { SearchIcon } from '../components/ui/icons';
import { lazyDialog } from '../components/ui/lazy-dialog';
import { ErrorState } from '../components/ui/states';
import { organizationQueryOptions } from '../features/organizations/api/get-organization';
import { usePresence } from '../features/organizations/api/ping';
import { OrganizationNav } from '../features/organizations/components/org-nav';
import { usePaletteShortcut } from '../features/search/utils/palette-shortcut';
import { isApiError, isSsoRequired } from '../lib/api-client';
import { SsoRequiredState } from './-sso-required';
import { idParams } from './-url';

export const Route = createFileRoute('/_app/o/$organizationId')({
  params: { parse: idParams('organizationId') },
  loader: ({ context, params }) => context.queryClient.ensureQueryData(organizationQueryOptions(params.organizationId)),
  component: OrganizationLayout,
  errorComponent: OrganizationError,
});

const CommandPalette = lazyDialog(() =>
  import('../features/search/components/command-palette').then((m) => m.CommandPalette),
);

/** The organization's frame: its sidebar (search, sections) around the screen. */
function OrganizationLayout() {
  const { organizationId } = Route.useParams();
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

function OrganizationError({ error, reset }: ErrorComponentProps) {
  const { organizationId } = Route.useParams();
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
