import { z } from 'zod';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN } from './contract/constants.js';

export { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN };

/** A page cursor is opaque to clients: pass back `next.page` as the `page` query parameter. */
export const pageCursorSchema = z.string().min(1).max(512);

/** `page` and `limit` of every paginated list. */
export const pagedQuerySchema = z.object({
  page: pageCursorSchema.optional(),
  limit: z.coerce.number().int().min(LIST_LIMIT_MIN).max(LIST_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
});
export type PagedQuery = z.infer<typeof pagedQuerySchema>;

/** The list envelope: `{items, next?: {page}, count}`. `next` is absent on the last page. */
export function listSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    next: z.object({ page: z.string() }).optional(),
    count: z.number().int(),
  });
}
export type List<T> = { items: T[]; next?: { page: string }; count: number };

/** A boolean in a query string: `true`/`false` (also `1`/`0`). */
export const queryBoolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
