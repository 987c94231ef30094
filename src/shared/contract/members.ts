import { z } from 'zod';
import { MEMBER_SEARCH_MAX, MEMBER_SORTS } from './constants.js';
import { roleOrGuestSchema, roleSchema, timestampSchema, userSchema, idSchema } from './common.js';
import { organizationParamsSchema } from './organizations.js';
import { listSchema } from '../pagination.js';
import { spaceSchema } from './spaces.js';
import { teamSchema, teamMemberSchema, TEAM_TITLE_MAX } from './teams.js';

export { MEMBER_SEARCH_MAX, MEMBER_SORTS };

export const memberSchema = z.object({
  object: z.literal('member'),
  id: z.string(),
  role: roleOrGuestSchema,
  user: userSchema,
  disabled: z.boolean(),
  joinedAt: timestampSchema,
  lastSeenAt: timestampSchema.optional(),
  sso: z.boolean(),
  spaces: z.number().int(),
  teams: z.number().int(),
  sites: z.number().int(),
});
export type Member = z.infer<typeof memberSchema>;

export const updateMemberBodySchema = z.object({ role: roleOrGuestSchema });
export type UpdateMemberBody = z.infer<typeof updateMemberBodySchema>;

export const memberListSchema = listSchema(memberSchema);

export const listMembersQuerySchema = z.object({
  order: z.enum(['asc', 'desc']).default('desc'),
  role: z.enum(['admin', 'create', 'edit', 'review', 'comment', 'read', 'guest']).optional(),
  search: z.string().trim().min(1).max(MEMBER_SEARCH_MAX).optional(),
  /** `lastSeenAt` lists only the members seen at least once. */
  sort: z.enum(MEMBER_SORTS).default('joinedAt'),
});
export type ListMembersQuery = z.infer<typeof listMembersQuerySchema>;

/** Answer of `POST /orgs/{organizationId}/ping`. */
export const pingResultSchema = z.object({
  /** A JWT signed by this server carrying the member's claims (see README, "Visitor claims"). */
  serviceVisitorClaims: z.string(),
});
export type PingResult = z.infer<typeof pingResultSchema>;

/** A space of a member, with the level they hold there. */
export const memberSpaceSchema = z.object({ permission: roleSchema, space: spaceSchema });
export const memberSpaceListSchema = listSchema(memberSpaceSchema);
export const listMemberSpacesQuerySchema = z.object({ order: z.enum(['asc', 'desc']).default('desc') });

/** A team of a member, with their role in it. */
export const memberTeamSchema = z.object({ team: teamSchema, member: teamMemberSchema });
export const memberTeamListSchema = listSchema(memberTeamSchema);
export const listMemberTeamsQuerySchema = z.object({ title: z.string().trim().min(1).max(TEAM_TITLE_MAX).optional() });

export const memberParamsSchema = organizationParamsSchema.extend({ userId: idSchema });

/** An entry of a team's member list: the organization membership, the role in the team. */
export const teamMembershipSchema = z.object({
  organization: memberSchema,
  team: teamMemberSchema,
  permissions: z.object({ view: z.boolean() }),
});
export const teamMembershipListSchema = listSchema(teamMembershipSchema);
