import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import type { SiteRow } from '../../storage/repos/sites.js';

/**
 * Preview grants: what the console's "Open live site" hands a site manager so that they can read their own
 * share-link or visitor-auth site (README, "Published sites"). A short-lived JWT naming the manager, checked by
 * published/visitor-access.ts at every use (signature, expiry, and that its user still manages the organization).
 */

/** Audience of preview grants. */
export const PREVIEW_AUDIENCE = 'docspace:site-preview';
/** How long a preview grant opens a site. */
export const PREVIEW_GRANT_SECONDS = 15 * 60;

/**
 * The key preview grants are signed with: derived from the site's visitor key, so that no token a site's own backend
 * signs with that key (visitor tokens, whatever claims they carry) can ever pass for one.
 */
export function previewKey(site: Pick<SiteRow, 'visitor_key'>): Uint8Array {
  return new Uint8Array(crypto.createHash('sha256').update(`docspace-site-preview:${site.visitor_key}`).digest());
}

/** A grant for `userId` to read `site` until the returned time. */
export async function signPreviewGrant(
  site: Pick<SiteRow, 'visitor_key'>,
  userId: string,
): Promise<{ token: string; expiresAt: string }> {
  const expires = Math.floor(Date.now() / 1000) + PREVIEW_GRANT_SECONDS;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setAudience(PREVIEW_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(expires)
    .sign(previewKey(site));
  return { token, expiresAt: new Date(expires * 1000).toISOString() };
}
