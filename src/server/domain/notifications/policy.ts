import type { Executor } from '../../storage/db.js';
import { findSpace } from '../../storage/repos/spaces.js';
import { orgAccess, spaceLevel } from '../permissions/resolver.js';
import { spacePolicy } from '../spaces/policy.js';

/**
 * Whether someone may be told of an event: the one rule the fan-out, the e-mail about to be sent, the digest and
 * the inbox all ask, so a notification never shows a space, change request or comment its recipient cannot read
 * at that moment. Everything an event concerns lives in a space (read with the space's own policy, `view`, from the
 * resolver's levels) or, for an invitation, in the organization (membership). A space in the trash shows nothing.
 * Levels are those of the member themselves (no SSO session to enforce: the inbox is read with the caller's own
 * credential, which `enforceSso` checks as everywhere).
 */
export interface EventScope {
  organization_id: string;
  space_id: string | null;
}

export class Visibility {
  private spaces = new Map<string, Awaited<ReturnType<typeof findSpace>> | null>();
  private answers = new Map<string, boolean>();

  constructor(private readonly db: Executor) {}

  async may(userId: string, event: EventScope): Promise<boolean> {
    const key = `${userId}\u0000${event.space_id ?? `org:${event.organization_id}`}`;
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    const answer = await this.compute(userId, event);
    this.answers.set(key, answer);
    return answer;
  }

  private async compute(userId: string, event: EventScope): Promise<boolean> {
    if (!event.space_id) return (await orgAccess(this.db, { userId }, event.organization_id)) !== null;
    let space = this.spaces.get(event.space_id);
    if (space === undefined) {
      space = (await findSpace(this.db, event.space_id)) ?? null;
      this.spaces.set(event.space_id, space);
    }
    if (!space || space.deleted_at) return false;
    const { level } = await spaceLevel(this.db, { userId }, space);
    return spacePolicy.can(level, 'view');
  }
}
