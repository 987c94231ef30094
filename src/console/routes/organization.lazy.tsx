import { Outlet } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { SidebarLayout } from '../components/layout/app-shell';
import { SearchIcon } from '../components/ui/icons';
import { lazyDialog } from '../components/ui/lazy-dialog';
import { usePresence } from '../features/organizations/api/ping';
import { OrganizationNav } from '../features/organizations/components/org-nav';
import { usePaletteShortcut } from '../features/search/utils/palette-shortcut';
import { organizationRoute } from './organization';

const CommandPalette = lazyDialog(() =>
  import('../features/search/components/command-palette').then((m) => m.CommandPalette),
);

/** The organization's frame: its sidebar (search, sections) around the screen. */
export function OrganizationLayout() {
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
