import type { UserInvitation } from '../../../../shared/contract';
import { roleLabel } from '../../../lib/roles';

/** "as an editor · from Ada Lovelace": the role offered, and who invited, when the server says. */
export function invitationDetails(invitation: Pick<UserInvitation, 'role' | 'invitedBy'>): string {
  const role = roleLabel(invitation.role).toLowerCase();
  const as = `as ${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
  return invitation.invitedBy ? `${as} · from ${invitation.invitedBy.displayName}` : as;
}

/** The count shown on the account menu: up to 9, then "9+". */
export function invitationBadge(count: number): string | undefined {
  if (count <= 0) return undefined;
  return count > 9 ? '9+' : String(count);
}

export function invitationsLabel(count: number): string {
  return `${count} pending invitation${count === 1 ? '' : 's'}`;
}
