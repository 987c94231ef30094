import { z } from 'zod';
import { idSchema, timestampSchema, userSchema } from './common.js';
import { listSchema } from '../pagination.js';

export const CHANGE_REQUEST_SUBJECT_MAX = 100;

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export const changeRequestStatusSchema = z.enum(CHANGE_REQUEST_STATUSES);
export type ChangeRequestStatus = z.infer<typeof changeRequestStatusSchema>;

export const changeRequestSchema = z.object({
  object: z.literal('change-request'),
  id: z.string(),
  number: z.number().int(),
  status: changeRequestStatusSchema,
  subject: z.string(),
  createdBy: userSchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  space: z.string(),
  revision: z.string(),
  revisionInitial: z.string(),
  revisionMergedAncestor: z.string().optional(),
  revisionMerged: z.string().optional(),
  mergedBy: userSchema.optional(),
  mergedAt: timestampSchema.optional(),
  comments: z.number().int(),
  outdated: z.boolean(),
  /** Conflicts found by the last update that still wait for a resolution. */
  conflicts: z.number().int(),
  urls: z.object({ app: z.string(), location: z.string() }),
  permissions: z.object({ edit: z.boolean(), merge: z.boolean(), review: z.boolean(), comment: z.boolean() }),
});
export type ChangeRequest = z.infer<typeof changeRequestSchema>;
export const changeRequestListSchema = listSchema(changeRequestSchema);

export const changeRequestSubjectSchema = z.string().trim().max(CHANGE_REQUEST_SUBJECT_MAX);

export const createChangeRequestBodySchema = z.object({
  subject: changeRequestSubjectSchema.optional(),
});
export type CreateChangeRequestBody = z.infer<typeof createChangeRequestBodySchema>;

export const updateChangeRequestBodySchema = z.object({
  subject: changeRequestSubjectSchema.optional(),
  status: z.enum(['draft', 'open', 'archived']).optional(),
});
export type UpdateChangeRequestBody = z.infer<typeof updateChangeRequestBodySchema>;

export const listChangeRequestsQuerySchema = z.object({
  status: changeRequestStatusSchema.default('open'),
  contributor: idSchema.optional(),
  orderBy: z.enum(['updatedAt', 'createdAt']).default('updatedAt'),
});

export const changeRequestParamsSchema = z.object({ spaceId: idSchema, changeRequestId: idSchema });

/** Answer of merge and update. */
export const mergeResultSchema = z.object({
  revision: z.string(),
  result: z.enum(['merge', 'update', 'conflicts']),
});

export const CONFLICT_KINDS = ['block', 'page-deleted', 'page-field', 'page-moved', 'file'] as const;

export const conflictResolutionSchema = z.union([
  z.object({ keep: z.enum(['space', 'change-request']) }).strict(),
  z.object({ markdown: z.string().max(500_000) }).strict(),
]);
export type ConflictResolution = z.infer<typeof conflictResolutionSchema>;

/** A change that could not merge: the base's, the space's and the change request's versions (null = absent). */
export const conflictSchema = z.object({
  object: z.literal('change-request-conflict'),
  id: z.string(),
  kind: z.enum(CONFLICT_KINDS),
  pageId: z.string().optional(),
  pageTitle: z.string().optional(),
  blockId: z.string().optional(),
  field: z.string().optional(),
  fileId: z.string().optional(),
  base: z.string().nullable(),
  space: z.string().nullable(),
  changeRequest: z.string().nullable(),
  resolution: conflictResolutionSchema.optional(),
});
export type ChangeRequestConflict = z.infer<typeof conflictSchema>;

export const conflictListSchema = z.object({
  items: z.array(conflictSchema),
  count: z.number().int(),
  /** Still without a resolution. */
  unresolved: z.number().int(),
});

export const conflictParamsSchema = changeRequestParamsSchema.extend({ conflictId: z.string().min(1).max(300) });
