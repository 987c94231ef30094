/**
 * An integration writes (change requests, revisions) as an account of its own (made when it is published:
 * domain/integrations/service.ts), so that everything that names an author names it. Such an account has an address
 * under this domain, reserved by RFC 2606 (`.invalid`): nobody receives mail there, no account or invitation is
 * given such an address (the contract's `newEmailSchema`), it is never found by e-mail (sign-in, recovery, SSO:
 * `findUserByEmail`) and never shown.
 */
export const INTEGRATION_ACCOUNT_DOMAIN = 'integrations.invalid';

/** (Typed loosely: a user joined to what they wrote may be gone.) */
export function isIntegrationAccountEmail(email: string | null | undefined): boolean {
  return typeof email === 'string' && email.endsWith(`@${INTEGRATION_ACCOUNT_DOMAIN}`);
}

/** The users row of an integration's account: its title as its name, its icon (served by the API) as its photo. */
export function integrationAccountRow(
  id: string,
  integration: { name: string; title: string; icon_asset_id: string | null },
  now: string,
) {
  return {
    id,
    email: `${id}@${INTEGRATION_ACCOUNT_DOMAIN}`,
    display_name: integration.title.slice(0, 100),
    // Never matches: such an account has no password, and no sign-in finds it (see above).
    password_hash: '',
    photo_url: integration.icon_asset_id
      ? `/v1/integrations/${encodeURIComponent(integration.name)}/assets/${integration.icon_asset_id}`
      : null,
    created_at: now,
  };
}
