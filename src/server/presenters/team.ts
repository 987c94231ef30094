import type { Team } from '../../shared/contract/teams.js';
import type { Role } from '../../shared/contract/common.js';
import { teamPermissions } from '../domain/teams/policy.js';

/** The columns a team is presented from (see repos/teams.ts): counters and the viewer's role in the team. */
export interface TeamViewRow {
  id: string;
  title: string;
  created_at: string;
  members_count: number | string;
  spaces_count: number | string;
  viewer_role: string | null;
}

/** `callerRole` is the viewer's organization role: admins and the team's owners manage the team. */
export function presentTeam(row: TeamViewRow, callerRole: Role | null): Team {
  return {
    object: 'team',
    id: row.id,
    title: row.title,
    members: Number(row.members_count),
    spaces: Number(row.spaces_count),
    createdAt: row.created_at,
    permissions: teamPermissions(callerRole, row.viewer_role),
  };
}
