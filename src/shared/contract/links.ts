import { z } from 'zod';
import { listSchema, pagedQuerySchema } from '../pagination.js';
import { pageTypeSchema, revisionFileSchema } from './content.js';
import { organizationSchema } from './organizations.js';
import { spaceSchema } from './spaces.js';

/**
 * Links and backlinks of space content (`GET /v1/spaces/{id}/links`, `…/content/page/{pageId}/links`,
 * `…/content/files/{fileId}/backlinks`, and the same in a change request).
 *
 * A link item (ContentReferenceUsage) is one target with the pages linking to it. Targets and locations follow the
 * published contract's ContentLocation (`kind` page, file or url; `internalLocation` for an anchor), with the
 * organization, space, revision and change request given by id (as a comment's `target` gives them), and a page
 * as `{id, title, type, path, urls.app}`. A target that is not in the revision has no `page` or `file`: its
 * `reference` says what the link names (a page id or path, resolved against the linking page for a relative link;
 * a file id or name).
 */
export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export const linkStatusSchema = z.enum(LINK_STATUSES);
export type LinkStatus = z.infer<typeof linkStatusSchema>;

export const LINK_RELATIONS = ['reference', 'dependsOn'] as const;
export const linkRelationSchema = z.enum(LINK_RELATIONS);

/**
 * Pages listed at most in one item's `locationReferences` (the first by page id; a file's backlinks list them all):
 * 100, fewer when a page of the list holds more than 50 targets, so that one answer lists at most 5,000 locations
 * (at least 5 per target).
 */
export const LINK_LOCATIONS_MAX = 100;
export const LINK_LOCATIONS_PER_ANSWER = 5_000;
export function linkLocationsPerTarget(limit: number): number {
  return Math.min(LINK_LOCATIONS_MAX, Math.max(5, Math.floor(LINK_LOCATIONS_PER_ANSWER / limit)));
}

export const linksQuerySchema = pagedQuerySchema.extend({ status: linkStatusSchema.optional() });
export type LinksQuery = z.infer<typeof linksQuerySchema>;

export const linkedPageSchema = z.object({
  id: z.string(),
  title: z.string(),
  type: pageTypeSchema,
  path: z.string(),
  urls: z.object({ app: z.string() }),
});

const located = {
  organization: organizationSchema,
  space: spaceSchema,
};

/** A page where links are found. */
export const pageLocationSchema = z.object({ kind: z.literal('page'), ...located, page: linkedPageSchema });
export type LinkPageLocation = z.infer<typeof pageLocationSchema>;

export const contentLocationSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('page'),
    ...located,
    page: linkedPageSchema.optional(),
    reference: z.string().optional(),
    internalLocation: z
      .object({
        type: z.literal('anchor'),
        anchor: z.string(),
        /** Extension, for a broken anchor: the page's section whose id is closest, the likely intended one. */
        suggestion: z.string().optional(),
      })
      .optional(),
  }),
  z.object({
    kind: z.literal('file'),
    ...located,
    file: revisionFileSchema.optional(),
    reference: z.string().optional(),
  }),
  z.object({ kind: z.literal('url'), url: z.string() }),
]);
export type ContentLocation = z.infer<typeof contentLocationSchema>;

export const linkSchema = z.object({
  status: linkStatusSchema,
  relation: linkRelationSchema,
  targetReference: contentLocationSchema,
  locationReferences: z.array(pageLocationSchema),
});
export type ContentLink = z.infer<typeof linkSchema>;

export const linkStatsSchema = z.object({
  /** Link targets. */
  total: z.number().int(),
  broken: z.object({
    total: z.number().int(),
    /** In a change request: broken targets that are not broken in the space's current content. */
    changeRequest: z.number().int().optional(),
  }),
});

export const linkListSchema = listSchema(linkSchema).extend({ stats: linkStatsSchema });
export type LinkList = z.infer<typeof linkListSchema>;

export const backlinkListSchema = listSchema(pageLocationSchema);
