import { z } from 'zod';
import { idSchema, roleOrGuestSchema, roleSchema, userSchema } from './common.js';
import { teamSchema } from './teams.js';
import { listSchema } from '../pagination.js';
import { spaceParamsSchema } from './spaces.js';
import { collectionParamsSchema } from './collections.js';

/** Users or teams named in one invitation to a space or a collection. */
export const GRANT_INVITE_MAX = 100;

/**
 * `POST /spaces/{spaceId}/permissions` (and on collections): gives `role` to these users and teams; a `null`
 * role takes their grants away.
 */
export const inviteToContentBodySchema = z
  .object({
    role: roleOrGuestSchema,
    users: z.array(idSchema).min(1).max(GRANT_INVITE_MAX).optional(),
    teams: z.array(idSchema).min(1).max(GRANT_INVITE_MAX).optional(),
  })
  .refine((b) => b.users !== undefined || b.teams !== undefined, {
    message: 'Name at least one user or team',
    path: ['users'],
  });
export type InviteToContentBody = z.infer<typeof inviteToContentBodySchema>;

/** PATCH of one grant: a role, or `null` to take it away. */
export const updateGrantBodySchema = z.object({ role: roleOrGuestSchema });

export const teamPermissionSchema = z.object({ permission: roleSchema, team: teamSchema });
export const teamPermissionListSchema = listSchema(teamPermissionSchema);
export const userPermissionSchema = z.object({ permission: roleSchema, user: userSchema });
export const userPermissionListSchema = listSchema(userPermissionSchema);

export const spaceTeamParamsSchema = spaceParamsSchema.extend({ teamId: idSchema });
export const spaceUserParamsSchema = spaceParamsSchema.extend({ userId: idSchema });
export const collectionTeamParamsSchema = collectionParamsSchema.extend({ teamId: idSchema });
export const collectionUserParamsSchema = collectionParamsSchema.extend({ userId: idSchema });
