import type { ServiceContext } from '../context.js';
import * as repo from '../../storage/repos/notifications.js';
import { nowIso } from '../../lib/time.js';
import { NotFoundError } from '../errors.js';
import { loadChangeRequest } from '../change-requests/service.js';
import { loadSpace } from '../spaces/service.js';
import { RevisionReader, revisionOfSpace } from '../content/model.js';
import { changeRequestTarget, pageTarget, type WatchTarget } from './events.js';

/**
 * Following a change request or a page of a space (README, "Notifications"): its author, reviewers and those who
 * take part follow it without asking; anyone who may read it can follow it, or stop, which also silences what they
 * would hear as its author or a participant (a mention or a review request still reaches them).
 */

export type Followed =
  { kind: 'change-request'; spaceId: string; id: string } | { kind: 'page'; spaceId: string; id: string };

async function targetOf(ctx: ServiceContext, what: Followed): Promise<WatchTarget> {
  if (what.kind === 'change-request') {
    const { cr } = await loadChangeRequest(ctx.db, ctx, what.spaceId, what.id, 'view', 'follow it');
    return changeRequestTarget(cr.id);
  }
  const { row: space } = await loadSpace(ctx.db, ctx, what.spaceId, 'view', 'follow its pages');
  const reader = new RevisionReader(ctx.db, await revisionOfSpace(ctx.db, space.id, space.revision_id));
  if (!(await reader.entry(what.id))) throw new NotFoundError('Page not found');
  return pageTarget(space.id, what.id);
}

export async function followState(ctx: ServiceContext, what: Followed) {
  const target = await targetOf(ctx, what);
  const row = await repo.watcherOf(ctx.db, target.kind, target.id, ctx.actor.userId);
  return { following: !!row && !row.muted };
}

export async function setFollowing(ctx: ServiceContext, what: Followed, following: boolean) {
  const target = await targetOf(ctx, what);
  await repo.setMuted(ctx.db, target, ctx.actor.userId, !following, nowIso());
  return { following };
}
