import { z } from 'zod';
import { defaultLevelSchema, idSchema } from './common.js';
import { listSchema, queryBoolean } from '../pagination.js';

export const COLLECTION_TITLE_MAX = 50;
export const COLLECTION_DESCRIPTION_MAX = 100;

export const collectionTitleSchema = z.string().trim().min(1, 'Title is required').max(COLLECTION_TITLE_MAX);
export const collectionDescriptionSchema = z.string().max(COLLECTION_DESCRIPTION_MAX);

export const collectionSchema = z.object({
  object: z.literal('collection'),
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  organization: z.string(),
  parent: z.string().optional(),
  defaultLevel: defaultLevelSchema,
  urls: z.object({ location: z.string(), app: z.string() }),
  permissions: z.object({
    view: z.boolean(),
    admin: z.boolean(),
    viewInviteLinks: z.boolean(),
    create: z.boolean(),
  }),
});
export type Collection = z.infer<typeof collectionSchema>;
export const collectionListSchema = listSchema(collectionSchema);

export const createCollectionBodySchema = z.object({
  title: collectionTitleSchema.optional(),
  parent: idSchema.optional(),
});
export type CreateCollectionBody = z.infer<typeof createCollectionBodySchema>;

export const updateCollectionBodySchema = z.object({
  title: collectionTitleSchema.optional(),
  description: collectionDescriptionSchema.optional(),
  defaultLevel: defaultLevelSchema.optional(),
});
export type UpdateCollectionBody = z.infer<typeof updateCollectionBodySchema>;

export const listCollectionsQuerySchema = z.object({
  nested: queryBoolean.default(true),
});

/** Where to put a moved space or collection, relative to a sibling. */
const contentPointerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('space'), space: idSchema }),
  z.object({ type: z.literal('collection'), collection: idSchema }),
]);
export type ContentPointer = z.infer<typeof contentPointerSchema>;

export const contentPositionSchema = z.object({
  before: contentPointerSchema.optional(),
  after: contentPointerSchema.optional(),
});
export type ContentPosition = z.infer<typeof contentPositionSchema>;

/** Body of `/move` for collections and spaces: at least one of `parent` (null = organization root) and `position`. */
export const moveBodySchema = z
  .object({
    parent: idSchema.nullable().optional(),
    position: contentPositionSchema.optional(),
  })
  .refine((b) => b.parent !== undefined || b.position !== undefined, {
    message: 'Give at least one of parent and position',
    path: ['parent'],
  });
export type MoveBody = z.infer<typeof moveBodySchema>;

export const transferBodySchema = z.object({ organization: idSchema });
export type TransferBody = z.infer<typeof transferBodySchema>;

export const collectionParamsSchema = z.object({ collectionId: idSchema });
