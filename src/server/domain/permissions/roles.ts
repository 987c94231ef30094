import { ROLES, type Role } from '../../../shared/contract/common.js';

/** Rank of a role: higher is more powerful. `null` (no access) ranks below every role. */
export function rank(role: Role | null): number {
  return role === null ? 0 : ROLES.length - ROLES.indexOf(role);
}

export function atLeast(level: Role | null, needed: Role): boolean {
  return rank(level) >= rank(needed);
}

export function maxRole(a: Role | null, b: Role | null): Role | null {
  return rank(a) >= rank(b) ? a : b;
}

export function asRole(value: string | null): Role | null {
  return value !== null && (ROLES as readonly string[]).includes(value) ? (value as Role) : null;
}
