import type { Member } from '../../shared/contract/members.js';
import type { MemberWithUserRow } from '../storage/repos/members.js';
import { asRole } from '../domain/permissions/roles.js';
import { presentUser } from './user.js';
import type { Urls } from '../lib/urls.js';

export function presentMember(urls: Urls, row: MemberWithUserRow): Member {
  return {
    object: 'member',
    id: row.user_id,
    role: asRole(row.role),
    user: presentUser(urls, {
      id: row.user_id,
      display_name: row.display_name,
      email: row.email,
      photo_url: row.photo_url,
    }),
    disabled: row.disabled === 1,
    joinedAt: row.joined_at,
    ...(row.last_seen_at ? { lastSeenAt: row.last_seen_at } : {}),
    sso: row.sso === 1,
    // Spaces granted to the member directly or through a team; teams they are in. Sites have no grants yet.
    spaces: Number(row.spaces_count),
    teams: Number(row.teams_count),
    sites: 0,
  };
}
