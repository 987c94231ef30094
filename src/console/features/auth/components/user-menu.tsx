import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { ChevronDownIcon } from '../../../components/ui/icons';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUser } from '../api/get-user';
import { useLogout } from '../api/logout';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return letters.map((part) => part?.[0]?.toUpperCase() ?? '').join('') || '?';
}

/** The signed-in user, with the sign-out action. */
export function UserMenu({ onSignedOut }: { onSignedOut: () => Promise<void> | void }) {
  const user = useUser();
  const logout = useLogout({ afterSignOut: onSignedOut });
  const toast = useToast();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className="btn btn-ghost user-trigger" aria-label={`Account: ${user.displayName}`}>
        <span className="avatar" aria-hidden="true">
          {initials(user.displayName)}
        </span>
        <span className="user-name">{user.displayName}</span>
        <ChevronDownIcon />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>
          <span className="menu-user-name">{user.displayName}</span>
          {user.email && <span className="menu-user-email">{user.email}</span>}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={logout.isPending}
          onSelect={() => {
            logout.mutate(undefined, {
              onError: (error) => toast.show(`Could not sign out: ${errorMessage(error)}`, 'error'),
            });
          }}
        >
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
