/** Organization ids are URL-safe, like every id of the API. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The organization someone names on the sign-in page: its id, or any console address of it (`…/o/{id}/…`, an
 * invite link `…/join/{id}/…`). Undefined when it is neither.
 */
export function parseOrganizationRef(text: string): string | undefined {
  const value = text.trim();
  if (ID.test(value)) return value;
  const match = /\/(?:o|join)\/([A-Za-z0-9_-]{1,64})(?:[/?#]|$)/.exec(value);
  return match?.[1];
}

const LAST_KEY = 'docspace.sso.organization';

/** The organization last used for single sign-on in this browser: offered the next time. */
export function lastSsoOrganization(): string | undefined {
  try {
    const value = window.localStorage.getItem(LAST_KEY);
    return value && ID.test(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function rememberSsoOrganization(organizationId: string): void {
  try {
    window.localStorage.setItem(LAST_KEY, organizationId);
  } catch {
    // Storage refused (private mode): only the hint is lost.
  }
}
