import { z } from 'zod';
import { CHANGE_REQUEST_STATUSES, CHANGE_REQUEST_SUBJECT_MAX, PAGE_MARKDOWN_MAX } from './constants.js';
import { idSchema, timestampSchema, userSchema } from './common.js';
import { listSchema } from '../pagination.js';
import { MARKDOWN_DEPTH_MESSAGE, tooDeeplyNested } from '../markdown-limits.js';

export { CHANGE_REQUEST_STATUSES, CHANGE_REQUEST_SUBJECT_MAX };

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
  z
    .object({
      markdown: z
        .string()
        .max(PAGE_MARKDOWN_MAX)
        .refine((v) => !tooDeeplyNested(v), MARKDOWN_DEPTH_MESSAGE),
    })
    .strict(),
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

// What a change request changes (its base against its content)

const changedPageSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  path: z.string().optional(),
});
const changedFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  downloadURL: z.string(),
});
const changedReusableContentSchema = z.object({ id: z.string(), title: z.string(), document: z.string().optional() });
/** An attribute before and after: text (title, slug, …), or the contract's objects (`layout`, `cover`). */
const attributeChangeSchema = z.object({ before: z.unknown().optional(), after: z.unknown().optional() });

export const semanticChangeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('page_created'), page: changedPageSchema }),
  z.object({ type: z.literal('page_deleted'), page: changedPageSchema }),
  z.object({
    type: z.literal('page_edited'),
    page: changedPageSchema,
    /** Each changed attribute (title, slug, emoji, description, href, document) with its values before and after. */
    attributes: z.record(z.string(), attributeChangeSchema),
  }),
  z.object({
    type: z.literal('page_moved'),
    page: changedPageSchema,
    /** The parent pages before and after; absent means the top level. */
    parent: z.object({ before: changedPageSchema.optional(), after: changedPageSchema.optional() }),
  }),
  z.object({ type: z.literal('file_created'), file: changedFileSchema }),
  z.object({ type: z.literal('file_edited'), file: changedFileSchema }),
  z.object({ type: z.literal('file_deleted'), file: changedFileSchema }),
  z.object({ type: z.literal('reusable_content_created'), reusableContent: changedReusableContentSchema }),
  z.object({ type: z.literal('reusable_content_deleted'), reusableContent: changedReusableContentSchema }),
  z.object({
    type: z.literal('reusable_content_edited'),
    reusableContent: changedReusableContentSchema,
    /** Its changed title or body (`document`) with values before and after. */
    attributes: z.record(z.string(), attributeChangeSchema),
  }),
]);
export type SemanticChange = z.infer<typeof semanticChangeSchema>;
export const semanticChangesSchema = z.object({ changes: z.array(semanticChangeSchema) });

const wordChangeSchema = z.object({ op: z.enum(['equal', 'insert', 'delete']), text: z.string() });
export const blockChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('unchanged'), id: z.string(), markdown: z.string() }),
  z.object({ kind: z.literal('added'), id: z.string(), markdown: z.string() }),
  z.object({ kind: z.literal('removed'), id: z.string(), markdown: z.string() }),
  z.object({
    kind: z.literal('modified'),
    id: z.string(),
    before: z.string(),
    after: z.string(),
    words: z.array(wordChangeSchema),
  }),
]);

/** The block-level diff of one page: before (the base) and after (the change request). */
export const pageDiffSchema = z.object({
  page: z.object({ id: z.string(), title: z.string() }),
  before: z.object({ title: z.string(), markdown: z.string() }).nullable(),
  after: z.object({ title: z.string(), markdown: z.string() }).nullable(),
  blocks: z.array(blockChangeSchema),
});
export const pageDiffParamsSchema = changeRequestParamsSchema.extend({ pageId: idSchema });

// Reviews

export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const;
export const REVIEW_COMMENT_MAX = 10_000;

export const reviewSchema = z.object({
  object: z.literal('change-request-review'),
  id: z.string(),
  revision: z.string(),
  reviewer: userSchema,
  /** Who had asked the reviewer for this review, when it answered a request. */
  requestedBy: userSchema.optional(),
  status: z.enum(REVIEW_STATUSES),
  /** The change request has changed since this review. */
  outdated: z.boolean(),
  /** The reviewer's message. */
  body: z.object({ markdown: z.string() }).optional(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  urls: z.object({ location: z.string() }),
});
export type Review = z.infer<typeof reviewSchema>;
export const reviewListSchema = listSchema(reviewSchema);
export const submitReviewBodySchema = z.object({
  status: z.enum(REVIEW_STATUSES),
  comment: z
    .object({
      markdown: z
        .string()
        .trim()
        .min(1)
        .max(REVIEW_COMMENT_MAX)
        .refine((v) => !tooDeeplyNested(v), MARKDOWN_DEPTH_MESSAGE),
    })
    .optional(),
});
export const reviewParamsSchema = changeRequestParamsSchema.extend({ reviewId: idSchema });

export const requestedReviewerSchema = z.object({
  object: z.literal('change-request-requested-reviewer'),
  kind: z.literal('user'),
  user: userSchema,
  requestedBy: userSchema,
  revision: z.string(),
  createdAt: timestampSchema,
});
export const requestedReviewerListSchema = listSchema(requestedReviewerSchema);
export const requestReviewersBodySchema = z.object({ users: z.array(idSchema).min(1).max(50) });
export const requestReviewersResultSchema = z.object({ users: z.array(requestedReviewerSchema) });
export const requestedReviewerParamsSchema = changeRequestParamsSchema.extend({ userId: idSchema });

// PDF export

export const pdfQuerySchema = z.object({
  only: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  page: idSchema.optional(),
});
export const pdfResultSchema = z.object({ url: z.string() });
