/** API path of a change request; the API takes its number wherever it takes its id. */
export function changeRequestPath(spaceId: string, number: number, rest = ''): string {
  return `/spaces/${encodeURIComponent(spaceId)}/change-requests/${number}${rest}`;
}
