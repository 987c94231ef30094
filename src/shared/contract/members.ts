import { z } from 'zod';
import { roleOrGuestSchema, timestampSchema, userSchema, idSchema } from './common.js';
import { organizationParamsSchema } from './organizations.js';
import { listSchema } from '../pagination.js';

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
  search: z.string().trim().min(1).max(100).optional(),
});

export const memberParamsSchema = organizationParamsSchema.extend({ userId: idSchema });
