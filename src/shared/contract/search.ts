import { z } from 'zod';
import { SEARCH_QUERY_MAX } from './constants.js';
import { idSchema } from './common.js';
import { listSchema } from '../pagination.js';

export { SEARCH_QUERY_MAX };

const queryText = z.string().trim().min(1).max(SEARCH_QUERY_MAX);

/** `query` of the space and organization searches: 1 to 512 characters once trimmed. */
export const searchQuerySchema = z.object({ query: queryText });

/**
 * Where the query matched in a text: `[start, end)` in UTF-16 code units (JavaScript string offsets) of the plain
 * text it comes with. Texts are plain text, never markup: render them escaped and wrap these ranges (in `<mark>`,
 * say) yourself.
 */
export const textRangeSchema = z.object({ start: z.number().int().min(0), end: z.number().int().min(0) });
export type TextRange = z.infer<typeof textRangeSchema>;

/** A section of a page that matched: its heading, an excerpt of its text, and what matched in each. */
export const searchSectionResultSchema = z.object({
  /** The heading's anchor (the `id` on the published page); the page id for the text before the first heading. */
  id: z.string(),
  /** The heading, or the page's title for the text before the first heading. */
  title: z.string(),
  /** The page's path, with `#anchor` for a heading. */
  path: z.string(),
  /** Excerpt of the section's text, plain text; `…` where it is cut. */
  body: z.string(),
  urls: z.object({ app: z.string() }),
  highlights: z.object({ title: z.array(textRangeSchema), body: z.array(textRangeSchema) }),
});
export type SearchSectionResult = z.infer<typeof searchSectionResultSchema>;

/** A page that matched, with its sections that matched (best first; none when only its title did). */
export const searchPageResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  path: z.string(),
  sections: z.array(searchSectionResultSchema),
  urls: z.object({ app: z.string() }),
  highlights: z.object({ title: z.array(textRangeSchema) }),
});
export type SearchPageResult = z.infer<typeof searchPageResultSchema>;
export const searchPageResultListSchema = listSchema(searchPageResultSchema);

/** One space with its pages that matched, in rank order. */
export const searchSpaceResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  pages: z.array(searchPageResultSchema),
});
export type SearchSpaceResult = z.infer<typeof searchSpaceResultSchema>;
export const searchSpaceResultListSchema = listSchema(searchSpaceResultSchema);

const siteSpaceIds = z.array(idSchema).min(1).max(100);

/** Which site spaces a site search covers (the published contract's SiteSearchScope). */
export const siteSearchScopeSchema = z.discriminatedUnion('mode', [
  /** The default site space of each section (or of the site), plus `currentSiteSpace` and `includedSiteSpaces`. */
  z.object({
    mode: z.literal('default'),
    currentSiteSpace: idSchema.optional(),
    includedSiteSpaces: z.array(idSchema).max(100).optional(),
  }),
  z.object({ mode: z.literal('specific'), siteSpaceIds }),
  z.object({ mode: z.literal('all') }),
]);
export type SiteSearchScope = z.infer<typeof siteSearchScopeSchema>;

/**
 * `POST /v1/orgs/{organizationId}/sites/{siteId}/search`: `{query, scope?}`, or the deprecated `mode` forms
 * (`{siteSpaceIds}`, `{mode: 'current', siteSpaceId}`, `{mode: 'all'}`). Without either, every site space.
 */
export const siteSearchBodySchema = z.object({
  query: queryText,
  scope: siteSearchScopeSchema.optional(),
  mode: z.enum(['specific', 'current', 'all']).optional(),
  siteSpaceIds: siteSpaceIds.optional(),
  siteSpaceId: idSchema.optional(),
});
export type SiteSearchBody = z.infer<typeof siteSearchBodySchema>;
