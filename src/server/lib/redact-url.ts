/**
 * A URL as shown to people other than the one who gave it: without its user name and password, its query (which
 * often carries a token) shown as `?…`, and no fragment. Text that is not a URL comes back as it is.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
}
