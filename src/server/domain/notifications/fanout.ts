import type { Db, Executor } from '../../storage/db.js';
import { transaction } from '../../storage/db.js';
import * as repo from '../../storage/repos/notifications.js';
import type { NotificationEventRow, NotificationRow } from '../../storage/repos/notifications.js';
import * as users from '../../storage/repos/users.js';
import { findOrganization } from '../../storage/repos/organizations.js';
import { findMembership } from '../../storage/repos/members.js';
import type { JobHandler } from '../../jobs/queue.js';
import { wakeJobQueues } from '../../jobs/queue.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { isIntegrationAccountEmail } from '../../lib/integration-accounts.js';
import { queueEmail, takeRate, type MailSettings } from '../mail/outbox.js';
import { en } from '../mail/templates.js';
import type { NotificationKind } from '../../../shared/contract/notifications.js';
import { pageTarget, type EventData } from './events.js';
import { findChangeRequest } from '../../storage/repos/change-requests.js';
import { findRevision } from '../../storage/repos/spaces.js';
import { changeRequestBase } from '../change-requests/service.js';
import { isPageKey, RevisionReader, ROOT } from '../content/model.js';
import { Visibility } from './policy.js';
import { Describer } from './describe.js';
import { channelOf, DEFAULT_DIGEST_HOUR, nextDigestAt, unsubscribeToken } from './preferences.js';

/**
 * The `notify` job: one event becomes one notification for each person concerned (never its actor, at most one per
 * person, with the strongest reason), among those who may see it now (policy.ts); then each is mailed at once,
 * kept for the daily digest, or left in the inbox, as the person chose. Safe to run again: notifications are
 * unique per event and person, and each message per notification.
 */

/** Immediate notification mails one address receives per hour; past it they wait for the digest. */
export const NOTIFICATION_MAILS_PER_ADDRESS_HOUR = 30;
/** Mails one person's mentions may cause per hour; past it their mentions reach the inbox only. */
export const MENTION_MAILS_PER_SENDER_HOUR = 200;
const HOUR_MS = 3_600_000;
/** Rows written per transaction, so a large fan-out never holds the database for long. */
const CHUNK = 500;

/** Why someone gets a notification, strongest first. */
const REASONS = [
  'mention',
  'reviewer',
  'author',
  'page-author',
  'inviter',
  'starter',
  'participant',
  'watcher',
  'page-watcher',
] as const;
type Reason = (typeof REASONS)[number];

const REASON_TEXT: Record<Reason, string> = {
  mention: 'you were mentioned',
  reviewer: 'your review was asked for',
  author: 'you wrote the change request',
  'page-author': 'you created the page',
  inviter: 'you sent the invitation',
  starter: 'you started it',
  participant: 'you took part in the conversation',
  watcher: 'you follow this change request',
  'page-watcher': 'you follow this page',
};

/** Why a page's follower is told of a comment on it, from why they follow it. */
const PAGE_REASON: Record<string, Reason> = {
  author: 'page-author',
  participant: 'participant',
  mention: 'participant',
};

async function candidates(db: Executor, event: NotificationEventRow): Promise<Map<string, Reason>> {
  const data = JSON.parse(event.data) as EventData;
  const out = new Map<string, Reason>();
  const add = (ids: Iterable<string | null | undefined>, reason: Reason) => {
    for (const id of ids) {
      if (!id) continue;
      const had = out.get(id);
      if (!had || REASONS.indexOf(reason) < REASONS.indexOf(had)) out.set(id, reason);
    }
  };
  const author = event.change_request_id ? await repo.changeRequestAuthor(db, event.change_request_id) : undefined;
  // Read once: the followers told below, and the muted ones left out at the end.
  const watchers = event.change_request_id
    ? await repo.watchersOf(db, 'change-request', event.change_request_id)
    : event.kind === 'comment' && event.page_id && event.space_id
      ? await repo.watchersOf(db, 'page', pageTarget(event.space_id, event.page_id).id)
      : [];
  const following = watchers.filter((r) => !r.muted);
  switch (data.mentionsOnly ? 'mentions-only' : event.kind) {
    case 'mentions-only':
      break;
    case 'review-requested':
      add(data.reviewers ?? [], 'reviewer');
      break;
    case 'review-submitted':
    case 'change-request-conflict':
      add([author], 'author');
      break;
    case 'change-request-merged':
    case 'comment':
      if (event.change_request_id) {
        add(
          following.map((r) => r.user_id),
          'watcher',
        );
        add([author], 'author');
      } else {
        // A comment on a page of the space: who created the page, took part in its comments or follows it.
        for (const row of following) add([row.user_id], PAGE_REASON[row.reason] ?? 'page-watcher');
      }
      break;
    case 'reply':
      if (event.comment_id) add(await repo.threadParticipants(db, event.comment_id), 'participant');
      break;
    case 'invitation-accepted':
      add([data.inviter], 'inviter');
      break;
    case 'import-failed':
    case 'git-sync-failed':
      add([data.starter], 'starter');
      break;
  }
  add(data.mentions ?? [], 'mention');
  // A change request or page someone stopped following stays silent for them, except for a mention or a request.
  for (const row of watchers) {
    if (!row.muted) continue;
    const reason = out.get(row.user_id);
    if (reason && reason !== 'mention' && reason !== 'reviewer') out.delete(row.user_id);
  }
  if (event.actor_id) out.delete(event.actor_id);
  return out;
}

export function notifyJobHandler(db: Db, settings: MailSettings): JobHandler {
  return {
    attempts: 5,
    async run(payload) {
      const { id } = payload as { id: string };
      const event = await repo.findEvent(db, id);
      if (!event) return;
      if (event.kind === 'change-request-merged') await followCreatedPages(db, event);
      const wanted = await candidates(db, event);
      const visibility = new Visibility(db);
      const recipients: Array<[string, Reason]> = [];
      for (const [userId, reason] of wanted) {
        if (await visibility.may(userId, event)) recipients.push([userId, reason]);
      }
      for (let i = 0; i < recipients.length; i += CHUNK) {
        await deliver(db, settings, event, recipients.slice(i, i + CHUNK));
      }
      wakeJobQueues();
    },
  };
}

/**
 * "A page you authored": whoever wrote a merged change request follows the pages it created (those its content has
 * and its base had not), so they hear of comments on them. Run again, it adds nothing.
 */
async function followCreatedPages(db: Db, event: NotificationEventRow): Promise<void> {
  if (!event.change_request_id || !event.space_id) return;
  const cr = await findChangeRequest(db, event.space_id, event.change_request_id);
  // An integration's account has no inbox (lib/integration-accounts.ts): it follows nothing.
  if (!cr || isIntegrationAccountEmail((await users.findUserById(db, cr.created_by))?.email)) return;
  const [base, head] = await Promise.all([findRevision(db, changeRequestBase(cr)), findRevision(db, cr.revision_id)]);
  if (!base || !head) return;
  const created: string[] = [];
  for (const d of await new RevisionReader(db, head).trie.diff(base.pages_root, head.pages_root)) {
    if (d.key !== ROOT && isPageKey(d.key) && d.before === undefined && d.after !== undefined) created.push(d.key);
  }
  const now = nowIso();
  await repo.addWatchers(
    db,
    created.map((pageId) => ({
      target_kind: 'page',
      target_id: pageTarget(event.space_id!, pageId).id,
      user_id: cr.created_by,
      reason: 'author',
      muted: 0,
      created_at: now,
    })),
  );
}

async function deliver(
  db: Db,
  settings: MailSettings,
  event: NotificationEventRow,
  recipients: Array<[string, Reason]>,
): Promise<void> {
  const ids = recipients.map(([userId]) => userId);
  const [accounts, chosen] = await Promise.all([users.findUsersByIds(db, ids), repo.settingsOf(db, ids)]);
  const now = nowIso();
  const rows: NotificationRow[] = [];
  for (const [userId, reason] of recipients) {
    const user = accounts.get(userId);
    if (!user || isIntegrationAccountEmail(user.email)) continue;
    const kind: NotificationKind = reason === 'mention' ? 'mention' : (event.kind as NotificationKind);
    // Nothing is mailed to an address nobody verified.
    const channel = user.email_verified_at ? channelOf(kind, chosen.get(userId)) : 'in-app';
    rows.push({
      id: newId(),
      user_id: userId,
      event_id: event.id,
      kind,
      organization_id: event.organization_id,
      reason,
      channel,
      created_at: now,
      read_at: null,
      digest_state: channel === 'digest' ? 'pending' : null,
      email_message_id: null,
    });
  }
  const describer = new Describer(db);
  const org = await findOrganization(db, event.organization_id);
  await transaction(db, async (tx) => {
    const added = await repo.insertNotifications(tx, rows);
    for (const row of added) {
      const user = accounts.get(row.user_id)!;
      // Mentions cannot be used to mail people in bulk: past the sender's limit they stay in the inbox.
      if (
        row.channel === 'email' &&
        row.reason === 'mention' &&
        event.actor_id &&
        !(await takeRate(tx, 'mention-sender', event.actor_id, HOUR_MS, MENTION_MAILS_PER_SENDER_HOUR))
      ) {
        await repo.setChannel(tx, row.id, 'in-app');
        row.channel = 'in-app';
      }
      if (row.channel === 'email') {
        if (!(await takeRate(tx, 'notify-address', user.email, HOUR_MS, NOTIFICATION_MAILS_PER_ADDRESS_HOUR))) {
          // Too many for now: it waits for the digest rather than being lost.
          await repo.moveToDigest(tx, row.id);
          row.channel = 'digest';
        } else {
          const messageId = await mailNotification(tx, settings, describer, event, row, user, org);
          if (messageId) await repo.setNotificationEmail(tx, row.id, messageId);
        }
      }
      if (row.channel === 'digest') {
        await repo.scheduleDigest(
          tx,
          user.id,
          nextDigestAt(user.digest_hour ?? DEFAULT_DIGEST_HOUR, user.time_zone ?? 'UTC'),
        );
      }
    }
  });
}

/**
 * The e-mail of one notification. In an organization that enforces single sign-on (or for a member it marks SSO),
 * the mail carries no titles or excerpts: reading them takes a sign-in through the organization's provider.
 */
async function mailNotification(
  tx: Executor,
  settings: MailSettings,
  describer: Describer,
  event: NotificationEventRow,
  row: NotificationRow,
  user: users.UserRow,
  org: Awaited<ReturnType<typeof findOrganization>>,
): Promise<string | undefined> {
  const kind = row.kind as NotificationKind;
  const described = await describer.describe(kind, event);
  const member = await findMembership(tx, event.organization_id, user.id);
  const contentFree = Boolean(org?.sso) || Boolean(member?.sso);
  const url = described.target ? `${settings.publicUrl}${described.target}` : undefined;
  const unsubscribe = `${settings.publicUrl}/v1/notifications/unsubscribe?t=${await unsubscribeToken(tx, user.id, kind)}`;
  return queueEmail(tx, settings, {
    dedupeKey: `notif:${row.id}`,
    category: 'notification',
    kind,
    to: user.email,
    toUserId: user.id,
    senderUserId: event.actor_id,
    organizationId: event.organization_id,
    notificationId: row.id,
    mail: en.notification({
      organization: org?.title ?? 'Docspace',
      logo: org?.logo ?? undefined,
      summary: contentFree
        ? `New activity in ${org?.title ?? 'your organization'} (${kind.replace(/-/g, ' ')})`
        : described.summary,
      excerpt: contentFree ? undefined : described.excerpt,
      url,
      reason: REASON_TEXT[row.reason as Reason] ?? 'you follow it',
      settingsUrl: `${settings.publicUrl}/account#account-notifications`,
    }),
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      ...(event.change_request_id
        ? { References: `<cr-${event.change_request_id}@${new URL(settings.publicUrl).hostname}>` }
        : {}),
    },
  });
}
