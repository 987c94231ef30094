import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Executor } from '../../storage/db.js';
import { findMembership } from '../../storage/repos/members.js';
import { findTeam, teamMemberIds } from '../../storage/repos/teams.js';
import { InvalidError } from '../errors.js';
import { MENTIONS_PER_POST_MAX, TEAM_MENTION_MAX } from '../../../shared/contract/notifications.js';

/**
 * Mentions in comment markdown: a link to `/users/<id>` (the form the document model writes for a person) or to
 * `/teams/<id>`, such as `[@Ann Lee](/users/01J…)`. Only members of the space's organization and its teams count;
 * a team reaches each of its members once. Links inside code are text, not mentions.
 */

const TARGET = /^\/(users|teams)\/([A-Za-z0-9_-]{1,64})$/;

/** The user and team ids a post's markdown links to. */
export function mentionTargets(markdown: string): { users: Set<string>; teams: Set<string> } {
  const users = new Set<string>();
  const teams = new Set<string>();
  const visit = (node: { type: string; url?: string; children?: unknown[] }) => {
    if (node.type === 'link' && node.url) {
      const m = TARGET.exec(node.url);
      if (m) (m[1] === 'users' ? users : teams).add(m[2]!);
    }
    for (const child of (node.children ?? []) as Array<{ type: string; url?: string; children?: unknown[] }>) {
      visit(child);
    }
  };
  visit(fromMarkdown(markdown) as unknown as { type: string; children: unknown[] });
  return { users, teams };
}

/**
 * The people a post mentions, members of `organizationId` (teams expanded), less those `previous` (the post's
 * earlier version) already mentioned. Too many mentions, or too large a team, is a 400 naming `body`.
 */
export async function mentionedPeople(
  tx: Executor,
  organizationId: string,
  markdown: string,
  previous?: string,
): Promise<string[]> {
  const now = mentionTargets(markdown);
  if (now.users.size + now.teams.size > MENTIONS_PER_POST_MAX) {
    throw new InvalidError('body', `mentions at most ${MENTIONS_PER_POST_MAX} people and teams`);
  }
  const people = async (targets: { users: Set<string>; teams: Set<string> }) => {
    const out = new Set<string>();
    for (const userId of targets.users) {
      const membership = await findMembership(tx, organizationId, userId);
      if (membership && !membership.disabled) out.add(userId);
    }
    for (const teamId of targets.teams) {
      if (!(await findTeam(tx, organizationId, teamId))) continue;
      const members = await teamMemberIds(tx, teamId, TEAM_MENTION_MAX + 1);
      if (members.length > TEAM_MENTION_MAX) {
        throw new InvalidError('body', `mentions a team of more than ${TEAM_MENTION_MAX} people: mention fewer`);
      }
      for (const id of members) out.add(id);
    }
    return out;
  };
  const mentioned = await people(now);
  if (previous !== undefined && mentioned.size) {
    for (const id of await people(mentionTargets(previous))) mentioned.delete(id);
  }
  return [...mentioned];
}
