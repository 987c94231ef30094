import { z } from 'zod';
import { listSchema } from '../pagination.js';

export const SEARCH_QUERY_MAX = 512;

export const searchQuerySchema = z.object({ query: z.string().trim().min(1).max(SEARCH_QUERY_MAX) });

export const searchPageResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  path: z.string(),
  sections: z
    .array(
      z.object({
        id: z.string(),
        title: z.string(),
        path: z.string(),
        body: z.string(),
        urls: z.object({ app: z.string() }),
      }),
    )
    .optional(),
  urls: z.object({ app: z.string() }),
});

/** One space matching an organization search, with its matching pages. */
export const searchSpaceResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  pages: z.array(searchPageResultSchema),
});
export type SearchSpaceResult = z.infer<typeof searchSpaceResultSchema>;
export const searchSpaceResultListSchema = listSchema(searchSpaceResultSchema);
