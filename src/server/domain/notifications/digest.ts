import type { Db } from '../../storage/db.js';
import { transaction } from '../../storage/db.js';
import * as repo from '../../storage/repos/notifications.js';
import * as users from '../../storage/repos/users.js';
import { enqueueJob } from '../../storage/repos/jobs.js';
import type { JobHandler } from '../../jobs/queue.js';
import { wakeJobQueues } from '../../jobs/queue.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { queueEmail, type MailSettings } from '../mail/outbox.js';
import { en } from '../mail/templates.js';
import type { NotificationKind } from '../../../shared/contract/notifications.js';
import { Visibility } from './policy.js';
import { Describer } from './describe.js';
import { DEFAULT_DIGEST_HOUR, nextDigestAt } from './preferences.js';

/**
 * The daily digest. A notification routed to it waits (`digest_state` pending) and its person's next digest is
 * due at their hour (notification_digests). Every process looks for due digests each minute (jobs/digests.ts);
 * each is claimed with one conditional update (one process wins) and becomes a `digest` job, which mails what is
 * still unread and still visible, once (its message is keyed by the person and the moment it was due).
 */

export const DIGEST_JOB = 'digest';
/** Items listed in one digest; the rest are counted. */
const LISTED_MAX = 50;

/** Claims the digests due now and queues their jobs; answers how many. */
export async function queueDueDigests(db: Db, now = Date.now()): Promise<number> {
  const at = new Date(now).toISOString();
  let queued = 0;
  for (const row of await repo.dueDigests(db, at, 100)) {
    const user = await users.findUserById(db, row.user_id);
    const next = nextDigestAt(user?.digest_hour ?? DEFAULT_DIGEST_HOUR, user?.time_zone ?? 'UTC', now);
    const claimed = await transaction(db, async (tx) => {
      if (!(await repo.claimDigest(tx, row.user_id, row.due_at, next))) return false;
      await enqueueJob(
        tx,
        {
          id: newId(),
          kind: DIGEST_JOB,
          key: `${row.user_id}:${row.due_at}`,
          payload: JSON.stringify({ userId: row.user_id, dueAt: row.due_at }),
          group_key: null,
        },
        nowIso(),
      );
      return true;
    });
    if (claimed) queued += 1;
  }
  if (queued) wakeJobQueues();
  return queued;
}

export function digestJobHandler(db: Db, settings: MailSettings): JobHandler {
  return {
    async run(payload) {
      const { userId, dueAt } = payload as { userId: string; dueAt: string };
      const user = await users.findUserById(db, userId);
      if (!user) return;
      const pending = await repo.pendingDigestNotifications(db, userId);
      const visibility = new Visibility(db);
      const describer = new Describer(db);
      const included: string[] = [];
      const dropped: string[] = [];
      const items: Array<{ summary: string; excerpt?: string | undefined; url?: string | undefined }> = [];
      for (const n of pending) {
        const event = await repo.findEvent(db, n.event_id);
        // Read already in the console, or no longer visible: not worth a line.
        if (n.read_at || !event || !(await visibility.may(userId, event))) {
          dropped.push(n.id);
          continue;
        }
        included.push(n.id);
        if (items.length < LISTED_MAX) {
          const d = await describer.describe(n.kind as NotificationKind, event);
          items.push({
            summary: d.summary,
            excerpt: d.excerpt,
            url: d.target ? `${settings.publicUrl}${d.target}` : undefined,
          });
        }
      }
      if (included.length > LISTED_MAX) items.push({ summary: `and ${included.length - LISTED_MAX} more` });
      await transaction(db, async (tx) => {
        if (included.length && user.email_verified_at) {
          await queueEmail(tx, settings, {
            dedupeKey: `digest:${userId}:${dueAt}`,
            category: 'digest',
            kind: 'digest',
            to: user.email,
            toUserId: userId,
            mail: en.digest({
              count: included.length,
              items,
              settingsUrl: `${settings.publicUrl}/account#account-notifications`,
              inboxUrl: `${settings.publicUrl}/inbox`,
            }),
          });
        }
        await repo.setDigestState(tx, included, 'included');
        await repo.setDigestState(tx, dropped, 'dropped');
        await repo.recordDigestSent(tx, userId, nowIso());
      });
      wakeJobQueues();
    },
  };
}
