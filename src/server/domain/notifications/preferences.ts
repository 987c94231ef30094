import { SignJWT, jwtVerify } from 'jose';
import type { Db, Executor } from '../../storage/db.js';
import { transaction } from '../../storage/db.js';
import * as repo from '../../storage/repos/notifications.js';
import * as users from '../../storage/repos/users.js';
import { serverKey } from '../auth/server-keys.js';
import { InvalidError } from '../errors.js';
import {
  NOTIFICATION_DEFAULTS,
  NOTIFICATION_KINDS,
  NOTIFICATION_LABELS,
  notificationChannelSchema,
  notificationKindSchema,
  type NotificationChannel,
  type NotificationKind,
  type UpdateNotificationSettings,
} from '../../../shared/contract/notifications.js';

/** Each person's choice per kind (in-app, e-mail now, daily digest), the digest's hour and their time zone. */

export const DEFAULT_DIGEST_HOUR = 8;

export function channelOf(kind: NotificationKind, chosen: Map<string, string> | undefined): NotificationChannel {
  const value = chosen?.get(kind);
  const parsed = notificationChannelSchema.safeParse(value);
  return parsed.success ? parsed.data : NOTIFICATION_DEFAULTS[kind];
}

/** Whether `zone` is a time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Minutes `zone` is ahead of UTC at `instant`. */
function offsetMinutes(zone: string, instant: number): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    })
      .formatToParts(instant)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!);
  return Math.round((asUtc - Math.floor(instant / 60_000) * 60_000) / 60_000);
}

/** The next instant after `now` at which it is `hour`:00 in `zone`. */
export function nextDigestAt(hour: number, zone: string, now = Date.now()): string {
  const tz = isTimeZone(zone) ? zone : 'UTC';
  const local = new Date(now + offsetMinutes(tz, now) * 60_000);
  for (let days = 0; days < 3; days++) {
    const guess = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days, hour);
    // The offset at that moment (daylight saving may differ from now's).
    const instant = guess - offsetMinutes(tz, guess) * 60_000;
    if (instant > now) return new Date(instant).toISOString();
  }
  return new Date(now + 24 * 3_600_000).toISOString();
}

export async function getSettings(db: Executor, userId: string) {
  const user = await users.findUserById(db, userId);
  const chosen = (await repo.settingsOf(db, [userId])).get(userId);
  return {
    kinds: NOTIFICATION_KINDS.map((kind) => ({
      kind,
      label: NOTIFICATION_LABELS[kind],
      channel: channelOf(kind, chosen),
      isDefault: !chosen?.has(kind),
    })),
    digestHour: user?.digest_hour ?? DEFAULT_DIGEST_HOUR,
    timeZone: user?.time_zone ?? 'UTC',
    emailEnabled: Boolean(user?.email_verified_at),
  };
}

export async function updateSettings(db: Db, userId: string, body: UpdateNotificationSettings) {
  if (body.timeZone !== undefined && !isTimeZone(body.timeZone)) {
    throw new InvalidError('timeZone', 'is not a time zone this server knows (such as Europe/Paris)');
  }
  await transaction(db, async (tx) => {
    for (const [kind, channel] of Object.entries(body.kinds ?? {})) {
      const k = notificationKindSchema.parse(kind);
      // The default is stored as no choice: a later change of defaults reaches those who never chose.
      await repo.saveSetting(tx, userId, k, channel === NOTIFICATION_DEFAULTS[k] ? null : (channel ?? null));
    }
    if (body.digestHour !== undefined || body.timeZone !== undefined) {
      await users.updateDigestSettings(tx, userId, {
        ...(body.digestHour !== undefined ? { digest_hour: body.digestHour } : {}),
        ...(body.timeZone !== undefined ? { time_zone: body.timeZone } : {}),
      });
    }
  });
  return getSettings(db, userId);
}

/**
 * The unsubscribe link of a notification mail (`List-Unsubscribe`): signed, so it needs no stored state, and good
 * for one kind of one person only.
 */
const UNSUBSCRIBE_KEY = 'unsubscribe';
const AUDIENCE = 'docspace-unsubscribe';

export async function unsubscribeToken(db: Executor, userId: string, kind: NotificationKind): Promise<string> {
  return new SignJWT({ k: kind })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('365d')
    .sign(await serverKey(db, UNSUBSCRIBE_KEY));
}

export async function readUnsubscribeToken(db: Executor, token: string) {
  try {
    const { payload } = await jwtVerify(token, await serverKey(db, UNSUBSCRIBE_KEY), {
      algorithms: ['HS256'],
      audience: AUDIENCE,
    });
    const kind = notificationKindSchema.safeParse(payload.k);
    if (!payload.sub || !kind.success) return undefined;
    return { userId: payload.sub, kind: kind.data };
  } catch {
    return undefined;
  }
}

/** One-click unsubscribe (RFC 8058): that kind becomes in-app only for that person. */
export async function unsubscribe(db: Db, token: string) {
  const claim = await readUnsubscribeToken(db, token);
  if (!claim) throw new InvalidError('t', 'This unsubscribe link is not valid');
  await repo.saveSetting(db, claim.userId, claim.kind, 'in-app');
  return { kind: claim.kind, label: NOTIFICATION_LABELS[claim.kind] };
}
