import type { User } from '../../shared/contract/common.js';
import type { UserRow } from '../storage/repos/users.js';
import type { TokenRow } from '../storage/repos/tokens.js';
import type { ApiToken } from '../../shared/contract/auth.js';
import type { Urls } from './urls.js';

export function presentUser(urls: Urls, row: Pick<UserRow, 'id' | 'display_name' | 'email' | 'photo_url'>): User {
  return {
    object: 'user',
    id: row.id,
    displayName: row.display_name,
    email: row.email,
    ...(row.photo_url ? { photoURL: row.photo_url } : {}),
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
  };
}
