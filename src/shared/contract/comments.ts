import { z } from 'zod';
import { tooDeeplyNested, MARKDOWN_DEPTH_MESSAGE } from '../markdown-limits.js';
import { idSchema, timestampSchema, userSchema } from './common.js';
import { listSchema, pagedQuerySchema } from '../pagination.js';
import { pageDocumentSchema } from './content.js';

/** Longest comment or reply body, in characters (after trimming). */
export const COMMENT_BODY_MAX = 10_000;
/** Longest reaction (one emoji, possibly a sequence joined with zero-width joiners). */
export const REACTION_MAX = 32;
/** Reactions added or removed by one update. */
export const REACTIONS_PER_UPDATE_MAX = 20;

export const COMMENT_STATUSES = ['open', 'resolved'] as const;
export const commentStatusSchema = z.enum(COMMENT_STATUSES);
export type CommentStatus = z.infer<typeof commentStatusSchema>;

const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
/** One emoji (a pictograph, optionally with modifiers, variation selectors and joiners); no spaces or words. */
export const reactionSchema = z
  .string()
  .max(REACTION_MAX)
  .refine((s) => PICTOGRAPH.test(s) && !/[\s\p{L}]/u.test(s), { message: 'Must be an emoji' });

/** A comment body: markdown, 1..COMMENT_BODY_MAX characters once trimmed. */
export const commentMarkdownSchema = z
  .string()
  .trim()
  .min(1, 'Write something first')
  .max(COMMENT_BODY_MAX, `Use at most ${COMMENT_BODY_MAX} characters`)
  .refine((v) => !tooDeeplyNested(v), MARKDOWN_DEPTH_MESSAGE);
export const commentBodyInputSchema = z.object({ markdown: commentMarkdownSchema });

/** Output body: markdown (the default) or, with `format=document`, the block document. */
export const commentBodySchema = z.union([
  z.object({ markdown: z.string() }),
  z.object({ document: pageDocumentSchema }),
]);

export const reactionSchemaOut = z.object({
  emoji: z.string(),
  count: z.number().int(),
  users: z.array(z.object({ user: userSchema, reactedAt: timestampSchema })),
});

const commentPermissionsSchema = z.object({
  view: z.boolean(),
  edit: z.boolean(),
  reply: z.boolean(),
  delete: z.boolean(),
  /** Can resolve and reopen the comment (anyone who can comment). */
  resolve: z.boolean(),
});

export const commentTargetSchema = z.object({
  space: z.string(),
  /** The revision the comment was posted on. */
  revision: z.string(),
  changeRequest: z.string().optional(),
  page: z
    .object({
      id: z.string(),
      title: z.string(),
      emoji: z.string().optional(),
      path: z.string(),
      /** The page, or the block the comment anchors to, is no longer in the current content. */
      outdated: z.boolean(),
    })
    .optional(),
  node: z
    .object({
      id: z.string(),
      /** The start of the block's text when the comment was posted. */
      preview: z.string().optional(),
      /** The block is no longer in the current content of the page. */
      outdated: z.boolean(),
    })
    .optional(),
});

const commentBase = z.object({
  id: z.string(),
  postedBy: userSchema,
  postedAt: timestampSchema,
  editedAt: timestampSchema.optional(),
  reactions: z.array(reactionSchemaOut),
  body: commentBodySchema,
  urls: z.object({ location: z.string() }),
  permissions: commentPermissionsSchema,
});

export const commentSchema = commentBase.extend({
  object: z.literal('comment'),
  replies: z.number().int(),
  /** The distinct users who replied, first reply first. */
  repliers: z.array(userSchema),
  target: commentTargetSchema,
  status: commentStatusSchema,
  resolvedAt: timestampSchema.optional(),
  resolvedBy: userSchema.optional(),
});
export type Comment = z.infer<typeof commentSchema>;
export const commentListSchema = listSchema(commentSchema);

export const commentReplySchema = commentBase.extend({
  object: z.literal('comment-reply'),
  permissions: commentPermissionsSchema.omit({ resolve: true }),
});
export type CommentReply = z.infer<typeof commentReplySchema>;
export const commentReplyListSchema = listSchema(commentReplySchema);

// Requests

export const COMMENT_FORMATS = ['markdown', 'document'] as const;
export const commentFormatQuerySchema = z.object({ format: z.enum(COMMENT_FORMATS).default('markdown') });

/** A query-string array: `authors=a&authors=b` or `authors=a,b`. */
const idList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).filter((s) => s !== ''))
  .pipe(z.array(idSchema).max(50));

export const listCommentsQuerySchema = pagedQuerySchema.extend(commentFormatQuerySchema.shape).extend({
  order: z.enum(['asc', 'desc']).default('desc'),
  status: z.enum(['all', 'open', 'resolved']).default('all'),
  targetPage: idSchema.optional(),
  authors: idList.optional(),
});
export type ListCommentsQuery = z.infer<typeof listCommentsQuerySchema>;

export const listRepliesQuerySchema = pagedQuerySchema.extend(commentFormatQuerySchema.shape);

export const postCommentBodySchema = z.object({
  /** The page commented on; absent for a comment on the whole change request (or space). */
  page: idSchema.optional(),
  /** The block (its id in the page's document) the comment anchors to; needs `page`. */
  node: idSchema.optional(),
  body: commentBodyInputSchema,
});
export type PostCommentBody = z.infer<typeof postCommentBodySchema>;

const reactionsChange = {
  addedReactions: z.array(reactionSchema).max(REACTIONS_PER_UPDATE_MAX).optional(),
  removedReactions: z.array(reactionSchema).max(REACTIONS_PER_UPDATE_MAX).optional(),
};

export const updateReplyBodySchema = z.object({ body: commentBodyInputSchema.optional(), ...reactionsChange });
export type UpdateReplyBody = z.infer<typeof updateReplyBodySchema>;

export const updateCommentBodySchema = updateReplyBodySchema.extend({ resolved: z.boolean().optional() });
export type UpdateCommentBody = z.infer<typeof updateCommentBodySchema>;

export const postReplyBodySchema = z.object({ body: commentBodyInputSchema });

export const changeRequestCommentParamsSchema = z.object({
  spaceId: idSchema,
  changeRequestId: idSchema,
  commentId: idSchema,
});
export const changeRequestReplyParamsSchema = changeRequestCommentParamsSchema.extend({ commentReplyId: idSchema });
export const spaceCommentParamsSchema = z.object({ spaceId: idSchema, commentId: idSchema });
export const spaceReplyParamsSchema = spaceCommentParamsSchema.extend({ commentReplyId: idSchema });
