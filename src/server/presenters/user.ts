import type { User } from '../../shared/contract/common.js';
import type { UserRow } from '../storage/repos/users.js';
import type { SessionRow, TokenRow } from '../storage/repos/tokens.js';
import type { ApiToken } from '../../shared/contract/auth.js';
import type { UserSession } from '../../shared/contract/account.js';
import type { Urls } from '../lib/urls.js';
import { isIntegrationAccountEmail } from '../lib/integration-accounts.js';

export function presentUser(urls: Urls, row: Pick<UserRow, 'id' | 'display_name' | 'email' | 'photo_url'>): User {
  return {
    object: 'user',
    id: row.id,
    // An integration's account says so (its title is its publisher's choice: it must not pass for a colleague), and
    // has no address to show (lib/integration-accounts.ts).
    ...(isIntegrationAccountEmail(row.email)
      ? { displayName: `${row.display_name} (integration)` }
      : { displayName: row.display_name, email: row.email }),
    // An uploaded photo is stored as its path on this server; an address elsewhere as it is.
    ...(row.photo_url ? { photoURL: row.photo_url.startsWith('/') ? urls.app(row.photo_url) : row.photo_url } : {}),
    urls: { location: urls.api(`/users/${row.id}`) },
  };
}

export function presentToken(row: TokenRow): ApiToken {
  return {
    object: 'api-token',
    id: row.id,
    label: row.label,
    createdAt: row.created_at,
    ...(row.last_used_at ? { lastUsedAt: row.last_used_at } : {}),
    ...(row.ip || row.user_agent
      ? {
          lastUsedFrom: { ...(row.ip ? { ip: row.ip } : {}), ...(row.user_agent ? { userAgent: row.user_agent } : {}) },
        }
      : {}),
  };
}

/** A console session of the caller's account; `current` when it is the one making the request. */
export function presentSession(row: SessionRow, currentSessionId: string | null): UserSession {
  return {
    object: 'session',
    id: row.id,
    createdAt: row.created_at,
    ...(row.last_used_at ? { lastUsedAt: row.last_used_at } : {}),
    ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
    ...(row.user_agent ? { userAgent: row.user_agent } : {}),
    ...(row.ip ? { ip: row.ip } : {}),
    method: row.sso_provider_id ? 'sso' : 'password',
    current: row.id === currentSessionId,
  };
}
