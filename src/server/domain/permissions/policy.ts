import type { Role } from '../../../shared/contract/common.js';
import { atLeast } from './roles.js';

/**
 * A policy: for each action on a kind of resource, the lowest level (on the item) or role (in the organization)
 * that may do it. Each area declares its own (`domain/<area>/policy.ts`); the service's checks ask `needs` or
 * `can`, and the presenter's `permissions` flags come from `flags`, so the two cannot disagree.
 */
export interface Policy<A extends string> {
  readonly rules: Readonly<Record<A, Role>>;
  /** The lowest level that may do `action`. */
  needs(action: A): Role;
  /** Whether `level` (null: no access, or a guest) may do `action`. */
  can(level: Role | null, action: A): boolean;
  /** Every action's answer for `level`, in the order the rules were declared. */
  flags(level: Role | null): Record<A, boolean>;
}

export function definePolicy<A extends string>(rules: Record<A, Role>): Policy<A> {
  const actions = Object.keys(rules) as A[];
  return {
    rules,
    needs: (action) => rules[action],
    can: (level, action) => atLeast(level, rules[action]),
    flags: (level) => {
      const out = {} as Record<A, boolean>;
      for (const action of actions) out[action] = atLeast(level, rules[action]);
      return out;
    },
  };
}
