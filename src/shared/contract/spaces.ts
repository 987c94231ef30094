import { z } from 'zod';
import { SHARE_KEY_MAX, SPACE_EDIT_MODES, SPACE_TRASH_DAYS, SPACE_VISIBILITIES } from './constants.js';
import { defaultLevelSchema, emojiSchema, idSchema, timestampSchema } from './common.js';
import { listSchema, queryBoolean } from '../pagination.js';
import { gitSyncStateSchema } from './git-sync.js';

export { SPACE_EDIT_MODES, SPACE_TRASH_DAYS, SPACE_VISIBILITIES };

export const SPACE_TITLE_MAX = 50;

export const spaceVisibilitySchema = z.enum(SPACE_VISIBILITIES);
export type SpaceVisibility = z.infer<typeof spaceVisibilitySchema>;

export const spaceEditModeSchema = z.enum(SPACE_EDIT_MODES);
export type SpaceEditMode = z.infer<typeof spaceEditModeSchema>;

export const spaceTitleSchema = z.string().trim().min(1, 'Title is required').max(SPACE_TITLE_MAX);

export const spaceSchema = z.object({
  object: z.literal('space'),
  id: z.string(),
  title: z.string(),
  emoji: z.string(),
  visibility: spaceVisibilitySchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  deletedAt: timestampSchema.optional(),
  editMode: spaceEditModeSchema.optional(),
  mergeRules: z.object({ type: z.literal('inherit') }),
  organization: z.string(),
  parent: z.string().optional(),
  /** The repository the space syncs with (Git Sync); given by `GET /v1/spaces/{spaceId}`. */
  gitSync: gitSyncStateSchema.optional(),
  revision: z.string(),
  defaultLevel: defaultLevelSchema,
  comments: z.number().int(),
  changeRequests: z.number().int(),
  changeRequestsOpen: z.number().int(),
  changeRequestsDraft: z.number().int(),
  urls: z.object({
    location: z.string(),
    app: z.string(),
    published: z.string().optional(),
    public: z.string().optional(),
    icon: z.string().optional(),
  }),
  permissions: z.object({
    view: z.boolean(),
    access: z.boolean(),
    admin: z.boolean(),
    viewInviteLinks: z.boolean(),
    edit: z.boolean(),
    triggerGitSync: z.boolean(),
    comment: z.boolean(),
    merge: z.boolean(),
    review: z.boolean(),
    installIntegration: z.boolean(),
  }),
});
export type Space = z.infer<typeof spaceSchema>;
export const spaceListSchema = listSchema(spaceSchema);

export const createSpaceBodySchema = z.object({
  title: spaceTitleSchema.optional(),
  emoji: emojiSchema.optional(),
  parent: idSchema.optional(),
  editMode: spaceEditModeSchema.optional(),
});
export type CreateSpaceBody = z.infer<typeof createSpaceBodySchema>;

/** PATCH body: every field optional; `emoji: null` clears the emoji. */
export const updateSpaceBodySchema = z.object({
  title: spaceTitleSchema.optional(),
  emoji: emojiSchema.nullable().optional(),
  visibility: spaceVisibilitySchema.optional(),
  editMode: spaceEditModeSchema.optional(),
  defaultLevel: defaultLevelSchema.optional(),
});
export type UpdateSpaceBody = z.infer<typeof updateSpaceBodySchema>;

/** Spaces of an organization; `deleted=true` lists the trash (spaces deleted within the last 7 days). */
export const listSpacesQuerySchema = z.object({
  deleted: queryBoolean.default(false),
});

export const spaceParamsSchema = z.object({ spaceId: idSchema });

/** `shareKey` resolves published URLs of share-link sites (sites come later; it changes nothing yet). */
export const getSpaceQuerySchema = z.object({ shareKey: z.string().max(SHARE_KEY_MAX).optional() });
