import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { UserInvitation } from '../../../../shared/contract';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  useMenuDialogs,
} from '../../../components/ui/dropdown-menu';
import { ChevronDownIcon, SettingsIcon } from '../../../components/ui/icons';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { setThemeChoice, themeChoice } from '../../../lib/theme';
import type { ThemeChoice } from '../../../lib/theme';
import { useMyInvitations } from '../api/get-invitations';
import { useUser } from '../api/get-user';
import { useLogout } from '../api/logout';
import { useAcceptAndOpen } from '../utils/accept-and-open';
import { invitationBadge, invitationDetails, invitationsLabel } from '../utils/invitations';
import '../auth.css';

const DeclineInvitationDialog = lazyDialog(() =>
  import('./pending-invitations').then((m) => m.DeclineInvitationDialog),
);

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return letters.map((part) => part?.[0]?.toUpperCase() ?? '').join('') || '?';
}

/** Invitations shown in the menu itself; more are on the account page. */
const MENU_INVITATIONS = 3;

/**
 * The signed-in user: pending invitations (accept, or decline after confirming), account settings and sign-out.
 * The button shows how many invitations wait; opening the menu asks the server again.
 */
export function UserMenu({ onSignedOut }: { onSignedOut: () => Promise<void> | void }) {
  const user = useUser();
  const logout = useLogout({ afterSignOut: onSignedOut });
  const invitations = useMyInvitations();
  const { accept } = useAcceptAndOpen();
  const navigate = useNavigate();
  const toast = useToast();
  const { trigger, openDialog, onCloseAutoFocus, dialog } = useMenuDialogs<'decline'>();
  const [declining, setDeclining] = useState<UserInvitation | null>(null);
  const [theme, setTheme] = useState<ThemeChoice>(themeChoice);
  const pending = invitations.data ?? [];
  const badge = invitationBadge(pending.length);
  const label = `Account: ${user.displayName}${pending.length ? `, ${invitationsLabel(pending.length)}` : ''}`;
  return (
    <>
      <DropdownMenu onOpenChange={(open) => open && void invitations.refetch()}>
        <DropdownMenuTrigger ref={trigger} className="btn btn-ghost user-trigger" aria-label={label}>
          {/* The photo, or initials and count drawn by CSS (data-initial): the visible text is the name, as in the label. */}
          {user.photoURL ? (
            <img className="avatar" src={user.photoURL} alt="" aria-hidden="true" />
          ) : (
            <span className="avatar" aria-hidden="true" data-initial={initials(user.displayName)} />
          )}
          <span className="user-name">{user.displayName}</span>
          {badge && <span className="count-badge" aria-hidden="true" data-initial={badge} />}
          <ChevronDownIcon />
        </DropdownMenuTrigger>
        <DropdownMenuContent onCloseAutoFocus={onCloseAutoFocus} className="menu user-menu">
          <DropdownMenuLabel>
            <span className="menu-user-name">{user.displayName}</span>
            {user.email && <span className="menu-user-email">{user.email}</span>}
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          {invitations.isError ? (
            <>
              <DropdownMenuItem
                onSelect={(event) => {
                  event.preventDefault();
                  void invitations.refetch();
                }}
              >
                Invitations could not be loaded: try again
              </DropdownMenuItem>
              <DropdownMenuSeparator />
            </>
          ) : pending.length > 0 ? (
            <>
              <DropdownMenuLabel>{invitationsLabel(pending.length)}</DropdownMenuLabel>
              {pending.slice(0, MENU_INVITATIONS).map((invitation) => {
                const title = invitation.organization.title;
                return (
                  <DropdownMenuGroup
                    key={invitation.id}
                    className="menu-invitation"
                    aria-label={`Invitation to ${title}`}
                  >
                    <p className="menu-invitation-text">
                      <span className="menu-invitation-title">{title}</span>
                      <span className="menu-invitation-meta">{invitationDetails(invitation)}</span>
                    </p>
                    <div className="menu-invitation-actions">
                      <DropdownMenuItem
                        className="menu-item-button menu-item-primary"
                        aria-label={`Accept the invitation to ${title}`}
                        onSelect={() =>
                          void accept(invitation).catch((error: unknown) =>
                            toast.show(`Could not join ${title}: ${errorMessage(error)}`, 'error'),
                          )
                        }
                      >
                        Accept
                      </DropdownMenuItem>
                      <DropdownMenuItem
                        className="menu-item-button"
                        aria-label={`Decline the invitation to ${title}`}
                        onSelect={() => {
                          setDeclining(invitation);
                          openDialog('decline');
                        }}
                      >
                        Decline…
                      </DropdownMenuItem>
                    </div>
                  </DropdownMenuGroup>
                );
              })}
              {pending.length > MENU_INVITATIONS && (
                <DropdownMenuItem onSelect={() => void navigate({ to: '/account' })}>
                  All {pending.length} invitations…
                </DropdownMenuItem>
              )}
              <DropdownMenuSeparator />
            </>
          ) : null}
          <DropdownMenuItem icon={<SettingsIcon />} onSelect={() => void navigate({ to: '/account' })}>
            Account settings
          </DropdownMenuItem>
          {user.emailVerified === false && (
            <DropdownMenuItem onSelect={() => void navigate({ to: '/account', hash: 'account-email' })}>
              Confirm your e-mail address
            </DropdownMenuItem>
          )}
          {user.instanceOwner && (
            <DropdownMenuItem onSelect={() => void navigate({ to: '/instance/outbox' })}>Outbox</DropdownMenuItem>
          )}
          <DropdownMenuSeparator />
          <DropdownMenuLabel>Theme</DropdownMenuLabel>
          <DropdownMenuRadioGroup
            aria-label="Theme"
            value={theme}
            onValueChange={(value) => {
              const choice = value as ThemeChoice;
              setThemeChoice(choice);
              setTheme(choice);
            }}
          >
            <DropdownMenuRadioItem value="system">System</DropdownMenuRadioItem>
            <DropdownMenuRadioItem value="light">Light</DropdownMenuRadioItem>
            <DropdownMenuRadioItem value="dark">Dark</DropdownMenuRadioItem>
          </DropdownMenuRadioGroup>
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
      <DeclineInvitationDialog invitation={declining} {...dialog('decline')} />
    </>
  );
}
