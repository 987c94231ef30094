/**
 * The secret a mailed link carries (a password reset, an address to confirm, an invitation): in the URL's fragment,
 * which the browser never sends to the server, so it is in no access log or `Referer`.
 */

/** Longest secret read from a link (the contract's limit of such tokens). */
const SECRET_MAX = 200;

/** The secret in the address's fragment, or null. */
export function linkSecret(): string | null {
  let secret = window.location.hash.replace(/^#/, '');
  try {
    secret = decodeURIComponent(secret);
  } catch {
    // A malformed escape: kept as it came (the server will say the link does not work).
  }
  return secret ? secret.slice(0, SECRET_MAX) : null;
}

/** Takes the secret out of the address bar and the history, once read. */
export function forgetLinkSecret(): void {
  if (window.location.hash) {
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }
}
