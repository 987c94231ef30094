import { z } from 'zod';
import { ID_MAX, timestampSchema } from './common.js';
import { listSchema, pagedQuerySchema } from '../pagination.js';

/** What people are notified of (README, "Notifications"). */
export const NOTIFICATION_KINDS = [
  'review-requested',
  'review-submitted',
  'mention',
  'comment',
  'reply',
  'change-request-merged',
  'change-request-conflict',
  'invitation-accepted',
  'import-failed',
  'git-sync-failed',
] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** How a kind reaches someone: the inbox only, the inbox and an e-mail at once, or the inbox and a daily digest. */
export const NOTIFICATION_CHANNELS = ['in-app', 'email', 'digest'] as const;
export const notificationChannelSchema = z.enum(NOTIFICATION_CHANNELS);
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

/** What each kind does unless the person chose otherwise. */
export const NOTIFICATION_DEFAULTS: Record<NotificationKind, NotificationChannel> = {
  'review-requested': 'email',
  'review-submitted': 'email',
  mention: 'email',
  comment: 'email',
  reply: 'digest',
  'change-request-merged': 'in-app',
  'change-request-conflict': 'email',
  'invitation-accepted': 'in-app',
  'import-failed': 'email',
  'git-sync-failed': 'email',
};

/** How each kind is named in settings. */
export const NOTIFICATION_LABELS: Record<NotificationKind, string> = {
  'review-requested': 'Someone asks for my review',
  'review-submitted': 'My change request is reviewed',
  mention: 'Someone mentions me or my team',
  comment: 'A comment on my change request or page',
  reply: 'A reply in a conversation I took part in',
  'change-request-merged': 'A change request I follow is merged',
  'change-request-conflict': 'My change request has conflicts',
  'invitation-accepted': 'Someone accepts my invitation',
  'import-failed': 'An import I started fails',
  'git-sync-failed': 'A Git Sync I set up fails',
};

/** Mentions one post may make (members and teams). */
export const MENTIONS_PER_POST_MAX = 20;
/** People a team mention may reach; a larger team is refused (400 naming `body`). */
export const TEAM_MENTION_MAX = 200;

/** One notification as its recipient sees it. Titles and excerpts only while they may still see the target. */
export const notificationSchema = z.object({
  object: z.literal('notification'),
  id: z.string(),
  kind: notificationKindSchema,
  /** Why they got it: mention, reviewer, author, participant, watcher, inviter, starter. */
  reason: z.string(),
  createdAt: timestampSchema,
  readAt: timestampSchema.optional(),
  /** False once the recipient may no longer see what it is about: then only the kind and the date are given. */
  available: z.boolean(),
  organization: z.object({ id: z.string(), title: z.string() }).optional(),
  actor: z.object({ id: z.string(), displayName: z.string() }).optional(),
  space: z.object({ id: z.string(), title: z.string() }).optional(),
  changeRequest: z.object({ id: z.string(), number: z.number().int(), subject: z.string() }).optional(),
  /** The comment or reply's first words. */
  excerpt: z.string().optional(),
  /** A sentence saying what happened, for lists and mail. */
  summary: z.string(),
  /** Where to open it in the console (a path). */
  target: z.string().optional(),
});
export type Notification = z.infer<typeof notificationSchema>;
export const notificationListSchema = listSchema(notificationSchema);
export type NotificationList = z.infer<typeof notificationListSchema>;

export const notificationsQuerySchema = pagedQuerySchema.extend({
  unread: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});

export const unreadCountSchema = z.object({ count: z.number().int() });

/** `POST /v1/user/notifications/read`: some notifications, or all of them. */
export const markReadBodySchema = z
  .object({ ids: z.array(z.string().min(1).max(ID_MAX)).min(1).max(100).optional(), all: z.literal(true).optional() })
  .refine((b) => (b.ids !== undefined) !== (b.all !== undefined), { message: 'Send ids or all, not both' });
export type MarkReadBody = z.infer<typeof markReadBodySchema>;

export const notificationSettingsSchema = z.object({
  kinds: z.array(
    z.object({
      kind: notificationKindSchema,
      label: z.string(),
      channel: notificationChannelSchema,
      isDefault: z.boolean(),
    }),
  ),
  /** The hour of the daily digest (0–23) in `timeZone`. */
  digestHour: z.number().int().min(0).max(23),
  timeZone: z.string(),
  /** False while the address is not verified: nothing is mailed, whatever the choices. */
  emailEnabled: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const updateNotificationSettingsSchema = z.object({
  kinds: z.partialRecord(notificationKindSchema, notificationChannelSchema).optional(),
  digestHour: z.number().int().min(0).max(23).optional(),
  timeZone: z
    .string()
    .max(64)
    .regex(/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$|^UTC$/, 'Must be an IANA time zone such as Europe/Paris')
    .optional(),
});
export type UpdateNotificationSettings = z.infer<typeof updateNotificationSettingsSchema>;

/** `POST|DELETE …/change-requests/{id}/watch`: whether the caller follows it. */
export const watchStateSchema = z.object({ watching: z.boolean() });

/** `POST /v1/notifications/unsubscribe?t=`: the kind that is now in-app only. */
export const unsubscribeResultSchema = z.object({ kind: notificationKindSchema, label: z.string() });

/** Whether the caller follows a change request or a page (`GET|PUT|DELETE …/watch`). */
export const followStateSchema = z.object({ following: z.boolean() });
export type FollowState = z.infer<typeof followStateSchema>;
