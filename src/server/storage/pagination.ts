import { InvalidError } from '../lib/errors.js';

/**
 * Keyset pagination. The cursor is the sort key of the last item of a page, encoded opaquely, so page 1000
 * costs what page 1 costs and rows inserted between calls never shift a page.
 */
export function encodeCursor(key: string[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor(page: string | undefined, arity: number): string[] | undefined {
  if (page === undefined) return undefined;
  try {
    const key: unknown = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
    if (
      Array.isArray(key) &&
      key.length === arity &&
      key.every((k) => typeof k === 'string' && !k.includes('\u0000'))
    ) {
      return key as string[];
    }
  } catch {
    // fall through
  }
  throw new InvalidError('page', 'is not a page cursor returned by this list (pass back next.page)');
}

export interface Page<Row> {
  items: Row[];
  next?: { page: string };
  count: number;
}

export async function keysetPage<Row>(opts: {
  page: string | undefined;
  limit: number;
  arity: number;
  /** Rows after the cursor in sort order; asked for limit + 1 rows to know whether a next page exists. */
  rows: (after: string[] | undefined, take: number) => Promise<Row[]>;
  count: () => Promise<number>;
  key: (row: Row) => string[];
}): Promise<Page<Row>> {
  const after = decodeCursor(opts.page, opts.arity);
  const [rows, count] = await Promise.all([opts.rows(after, opts.limit + 1), opts.count()]);
  const items = rows.slice(0, opts.limit);
  const last = items[items.length - 1];
  return {
    items,
    next: rows.length > opts.limit && last ? { page: encodeCursor(opts.key(last)) } : undefined,
    count,
  };
}
