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

/** `GET …/permissions/explain?user=`: the member whose access is explained. */
export const explainAccessQuerySchema = z.object({ user: idSchema });

/** An item of the content tree named in an explanation. */
export const accessItemSchema = z.object({
  object: z.enum(['space', 'collection']),
  id: z.string(),
  title: z.string(),
});
export type AccessItem = z.infer<typeof accessItemSchema>;

/**
 * One rule of the permission resolver and the role it gave (null: no access):
 * - `organization-admin`: organization admins are admin of everything;
 * - `guest`: guests get nothing from default levels (grants still apply);
 * - `disabled`: a disabled member gets nothing at all;
 * - `organization-role`: every default level on the way up says `inherit`, so the member's organization role;
 * - `default-level`: the first default level that is not `inherit`, on `item` (the item itself or a collection
 *   containing it); a null role is "no access by default";
 * - `creator`: a member with the create role or higher is admin of what they created;
 * - `user-grant`, `team-grant`: a role given on `item` (the item or a collection containing it) to the member or to
 *   `team`, one of their teams.
 */
export const accessReasonSchema = z.discriminatedUnion('rule', [
  z.object({ rule: z.literal('organization-admin'), role: z.literal('admin') }),
  z.object({ rule: z.literal('guest'), role: z.null() }),
  z.object({ rule: z.literal('disabled'), role: z.null() }),
  z.object({ rule: z.literal('organization-role'), role: roleSchema }),
  z.object({ rule: z.literal('default-level'), role: roleOrGuestSchema, item: accessItemSchema }),
  z.object({ rule: z.literal('creator'), role: z.literal('admin'), item: accessItemSchema }),
  z.object({ rule: z.literal('user-grant'), role: roleSchema, item: accessItemSchema }),
  z.object({
    rule: z.literal('team-grant'),
    role: roleSchema,
    item: accessItemSchema,
    team: z.object({ id: z.string(), title: z.string() }),
  }),
]);
export type AccessReason = z.infer<typeof accessReasonSchema>;

/**
 * Why a member has their level on a space or a collection. `reason` is the rule that gives `level`; `reasons` are
 * every rule the resolver met, highest first (`reason` first). Once a rule gives admin the resolver looks no
 * further, so lower grants are then not listed.
 */
export const accessExplanationSchema = z.object({
  user: userSchema,
  level: roleOrGuestSchema,
  reason: accessReasonSchema,
  reasons: z.array(accessReasonSchema),
});
export type AccessExplanation = z.infer<typeof accessExplanationSchema>;
