import { z } from 'zod';
import { EMAIL_MAX, TEAM_TITLE_MAX } from './constants.js';
import { idSchema, timestampSchema } from './common.js';
import { organizationParamsSchema } from './organizations.js';
import { listSchema } from '../pagination.js';

export { TEAM_TITLE_MAX };

export const TEAM_TITLE_MIN = 1;
/** Users named in one create or bulk update (each of `members`, `add`, `remove`, `memberships`). */
export const TEAM_BULK_MAX = 1000;

export const TEAM_MEMBER_ROLES = ['owner', 'member'] as const;
export const teamMemberRoleSchema = z.enum(TEAM_MEMBER_ROLES);
export type TeamMemberRole = z.infer<typeof teamMemberRoleSchema>;

export const teamTitleSchema = z.string().trim().min(TEAM_TITLE_MIN).max(TEAM_TITLE_MAX);

export const teamSchema = z.object({
  object: z.literal('team'),
  id: z.string(),
  title: z.string(),
  /** Members in the team. */
  members: z.number().int(),
  /** Live spaces the team reaches through its grants: on the space, or on a collection containing it. */
  spaces: z.number().int(),
  createdAt: timestampSchema,
  permissions: z.object({
    /** Org admins and the team's owners manage it. */
    admin: z.boolean(),
    view: z.boolean(),
  }),
});
export type Team = z.infer<typeof teamSchema>;
export const teamListSchema = listSchema(teamSchema);

export const teamMemberSchema = z.object({ role: teamMemberRoleSchema });

export const listTeamsQuerySchema = z.object({
  /** A member id: only the teams they can manage. */
  owner: idSchema.optional(),
  title: z.string().trim().min(1).max(TEAM_TITLE_MAX).optional(),
});

export const createTeamBodySchema = z.object({
  title: teamTitleSchema,
  /** Member ids of the organization to add (as members). */
  members: z.array(idSchema).max(TEAM_BULK_MAX).optional(),
});
export type CreateTeamBody = z.infer<typeof createTeamBodySchema>;

export const updateTeamBodySchema = z.object({ title: teamTitleSchema });

/** A user by id or by the e-mail of their account. */
const userRefSchema = z.string().trim().min(1).max(EMAIL_MAX);

export const updateTeamMembersBodySchema = z.object({
  add: z.array(userRefSchema).max(TEAM_BULK_MAX).optional(),
  remove: z.array(userRefSchema).max(TEAM_BULK_MAX).optional(),
  memberships: z
    .record(idSchema, teamMemberSchema)
    .refine((m) => Object.keys(m).length <= TEAM_BULK_MAX, `At most ${TEAM_BULK_MAX} entries`)
    .optional(),
});
export type UpdateTeamMembersBody = z.infer<typeof updateTeamMembersBodySchema>;

export const putTeamMemberBodySchema = z.object({ role: teamMemberRoleSchema.default('member') });

export const teamParamsSchema = organizationParamsSchema.extend({ teamId: idSchema });
export const teamMemberParamsSchema = teamParamsSchema.extend({ userId: idSchema });
