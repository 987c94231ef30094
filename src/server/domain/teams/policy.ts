import type { Role } from '../../../shared/contract/common.js';
import type { Team } from '../../../shared/contract/teams.js';
import { organizationPolicy } from '../organizations/policy.js';

/**
 * Who may do what with a team: organization admins manage every team, a team's owners manage that team (rename,
 * delete, members and their roles); members who are not guests see every team, a guest the teams they are in.
 * `orgRole` is the caller's organization role, `teamRole` their role in the team (null when not in it). The
 * team's `permissions` flags and the team service's checks ask this module.
 */
export function teamPermissions(orgRole: Role | null, teamRole: string | null): Team['permissions'] {
  return {
    admin: organizationPolicy.can(orgRole, 'admin') || teamRole === 'owner',
    view: organizationPolicy.can(orgRole, 'listTeams') || teamRole !== null,
  };
}
