import { ROLES } from '../../../../shared/contract/constants';
import type { RoleOrGuest, UserInvitation } from '../../../../shared/contract';
import { roleLabel } from '../../../lib/roles';

/** "an editor", "a guest": a role as the end of a sentence. */
export function aRole(role: RoleOrGuest): string {
  const label = roleLabel(role).toLowerCase();
  return `${/^[aeiou]/.test(label) ? 'an' : 'a'} ${label}`;
}

/** "as an editor · from Ada Lovelace": the role offered, and who invited, when the server says. */
export function invitationDetails(invitation: Pick<UserInvitation, 'role' | 'invitedBy'>): string {
  const as = `as ${aRole(invitation.role)}`;
  return invitation.invitedBy ? `${as} · from ${invitation.invitedBy.displayName}` : as;
}

/** True when joining with `offered` would give more than `current` (roles from admin down; null is a guest). */
export function raisesRole(current: RoleOrGuest, offered: RoleOrGuest): boolean {
  if (offered === null) return false;
  return current === null || ROLES.indexOf(offered) < ROLES.indexOf(current);
}

/** The count shown on the account menu: up to 9, then "9+". */
export function invitationBadge(count: number): string | undefined {
  if (count <= 0) return undefined;
  return count > 9 ? '9+' : String(count);
}

export function invitationsLabel(count: number): string {
  return `${count} pending invitation${count === 1 ? '' : 's'}`;
}
