import type { Executor } from '../../storage/db.js';
import { findOrganization } from '../../storage/repos/organizations.js';
import { findSpace } from '../../storage/repos/spaces.js';
import { findUserById } from '../../storage/repos/users.js';
import { changeRequestHeading, postBody, type NotificationEventRow } from '../../storage/repos/notifications.js';
import type { NotificationKind } from '../../../shared/contract/notifications.js';
import type { EventData } from './events.js';

/**
 * What a notification says: read from its event and the current state of what it concerns, once the recipient was
 * found to see it (policy.ts). The inbox, the e-mail and the digest all describe it from here, so they say the same.
 */

export interface Described {
  organization?: { id: string; title: string };
  actor?: { id: string; displayName: string };
  space?: { id: string; title: string };
  changeRequest?: { id: string; number: number; subject: string };
  excerpt?: string;
  summary: string;
  /** A console path. */
  target?: string;
}

/** The first words of a comment's markdown, as one line. */
export function excerptOf(markdown: string, max = 200): string {
  const text = markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_>#~]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

type EventRow = Pick<
  NotificationEventRow,
  'organization_id' | 'space_id' | 'change_request_id' | 'page_id' | 'comment_id' | 'reply_id' | 'actor_id' | 'data'
>;

/** Reads what the event concerns (a few rows), with a cache for lists of many notifications. */
export class Describer {
  private cache = new Map<string, Promise<unknown>>();
  constructor(private readonly db: Executor) {}

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.cache.get(key) as Promise<T> | undefined;
    if (!p) this.cache.set(key, (p = load()));
    return p;
  }

  async describe(kind: NotificationKind, event: EventRow): Promise<Described> {
    const data = JSON.parse(event.data) as EventData;
    const [org, actor, space, cr, excerpt] = await Promise.all([
      this.once(`o:${event.organization_id}`, () => findOrganization(this.db, event.organization_id)),
      event.actor_id ? this.once(`u:${event.actor_id}`, () => findUserById(this.db, event.actor_id!)) : undefined,
      event.space_id ? this.once(`s:${event.space_id}`, () => findSpace(this.db, event.space_id!)) : undefined,
      event.change_request_id
        ? this.once(`c:${event.change_request_id}`, () => changeRequestHeading(this.db, event.change_request_id!))
        : undefined,
      this.once(`p:${event.comment_id}:${event.reply_id}`, () =>
        postBody(this.db, { commentId: event.comment_id, replyId: event.reply_id }).then((body) =>
          body === undefined ? undefined : excerptOf(body),
        ),
      ),
    ]);
    const who = actor?.display_name ?? 'Someone';
    // A comment on a page of the space (not of a change request) names the page, as it was titled then.
    const page = !cr && space && event.page_id ? { id: event.page_id, title: data.title ?? 'a page' } : undefined;
    const where = cr
      ? `“#${cr.number} ${cr.subject}”`
      : page && space
        ? `“${page.title}” in “${space.title}”`
        : space
          ? `“${space.title}”`
          : org
            ? org.title
            : 'an organization';
    const orgPath = org ? `/o/${org.id}` : undefined;
    const spacePath = orgPath && space ? `${orgPath}/spaces/${space.id}` : undefined;
    const target =
      cr && spacePath
        ? `${spacePath}/change-requests/${cr.number}`
        : page && spacePath
          ? `${spacePath}/pages/${encodeURIComponent(page.id)}`
          : (spacePath ?? orgPath);
    const summary = (() => {
      switch (kind) {
        case 'review-requested':
          return `${who} asked for your review of ${where}`;
        case 'review-submitted':
          return data.status === 'approved' ? `${who} approved ${where}` : `${who} requested changes on ${where}`;
        case 'mention':
          return `${who} mentioned you in ${where}`;
        case 'comment':
          return `${who} commented on ${where}`;
        case 'reply':
          return `${who} replied in ${where}`;
        case 'change-request-merged':
          return `${who} merged ${where}`;
        case 'change-request-conflict':
          return `${where} has conflicts with ${space ? `“${space.title}”` : 'its space'}`;
        case 'invitation-accepted':
          return `${who} accepted your invitation to ${org?.title ?? 'the organization'}`;
        case 'import-failed':
          return `An import into ${where} failed${data.error ? `: ${data.error}` : ''}`;
        case 'git-sync-failed':
          return `Git Sync of ${where} failed${data.error ? `: ${data.error}` : ''}`;
      }
    })();
    return {
      ...(org ? { organization: { id: org.id, title: org.title } } : {}),
      ...(actor ? { actor: { id: actor.id, displayName: actor.display_name } } : {}),
      ...(space ? { space: { id: space.id, title: space.title } } : {}),
      ...(cr ? { changeRequest: { id: cr.id, number: cr.number, subject: cr.subject } } : {}),
      ...(excerpt ? { excerpt } : {}),
      summary,
      ...(target ? { target } : {}),
    };
  }
}

/** What is said of a notification its recipient may no longer see. */
export const UNAVAILABLE_SUMMARY = 'About something you can no longer see';
