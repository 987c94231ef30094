/** API path of a change request; the API takes its number wherever it takes its id. */
export function changeRequestPath(spaceId: string, number: number, rest = ''): string {
  return `/spaces/${encodeURIComponent(spaceId)}/change-requests/${number}${rest}`;
}

/** Whose comment threads: a change request's (its number), or the space's own content's (`null`). */
export type ThreadsOwner = number | null;

/** API path under the threads' owner: a change request, or the space itself for comments on its own pages. */
export function threadsPath(spaceId: string, number: ThreadsOwner, rest = ''): string {
  return number === null ? `/spaces/${encodeURIComponent(spaceId)}${rest}` : changeRequestPath(spaceId, number, rest);
}
