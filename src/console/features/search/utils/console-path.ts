/** The console path of an `urls.app` (same origin), with its query and anchor. */
export function consolePath(url: string): string {
  const parsed = new URL(url, window.location.origin);
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}
