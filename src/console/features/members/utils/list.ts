/** Rows before the end of what is loaded at which the next page is asked for, so scrolling rarely waits. */
export const LOAD_AHEAD_ROWS = 30;

/**
 * Whether the virtual list should fetch its next page: the last row drawn is within `ahead` rows of the end of
 * what is loaded, there is more, and no page is on its way already.
 */
export function shouldLoadMore(
  lastDrawnIndex: number | undefined,
  loaded: number,
  state: { hasNextPage: boolean; isFetching: boolean },
  ahead = LOAD_AHEAD_ROWS,
): boolean {
  if (lastDrawnIndex === undefined || !state.hasNextPage || state.isFetching) return false;
  return lastDrawnIndex >= loaded - 1 - ahead;
}

/** A member count for people: "1 member", "10,000 members". */
export function memberCount(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'member' : 'members'}`;
}
