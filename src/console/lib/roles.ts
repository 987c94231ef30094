import { ROLES } from '../../shared/contract/constants';
import type { Role, RoleOrGuest } from '../../shared/contract';

/** What each organization role may do, in a few words; `null` is a guest. */
export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  create: 'Creator',
  review: 'Reviewer',
  edit: 'Editor',
  comment: 'Commenter',
  read: 'Reader',
};

export const ROLE_HINTS: Record<Role | 'guest', string> = {
  admin: 'Manages the organization, its members and settings.',
  create: 'Creates spaces and collections, and edits content.',
  review: 'Reviews and merges change requests, and edits content.',
  edit: 'Edits content through change requests; cannot merge.',
  comment: 'Reads and comments.',
  read: 'Reads content.',
  guest: 'Sees only what is shared with them.',
};

/** The value of a `<select>` for a role: guests (`null`) are `guest`. */
export type RoleValue = Role | 'guest';

export function roleToValue(role: RoleOrGuest): RoleValue {
  return role ?? 'guest';
}

export function valueToRole(value: string): RoleOrGuest {
  return (ROLES as readonly string[]).includes(value) ? (value as Role) : null;
}

export function roleLabel(role: RoleOrGuest): string {
  return role ? ROLE_LABELS[role] : 'Guest';
}

/** Every role then guest, for a `<select>` (values as in `roleToValue`). */
export const ROLE_VALUE_OPTIONS: { value: RoleValue; label: string }[] = [
  ...ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] })),
  { value: 'guest', label: 'Guest' },
];

/** Options of `SelectField` for a field holding a role or `null` (guest). */
export const ROLE_SELECT_OPTIONS: { value: string | null; label: string; hint: string }[] = [
  ...ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role], hint: ROLE_HINTS[role] })),
  { value: null, label: 'Guest', hint: ROLE_HINTS.guest },
];
