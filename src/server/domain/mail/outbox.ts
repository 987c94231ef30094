import type { Config, SmtpConfig } from '../../config.js';
import type { Db, Executor } from '../../storage/db.js';
import * as mail from '../../storage/repos/mail.js';
import type { EmailRow } from '../../storage/repos/mail.js';
import { enqueueJob } from '../../storage/repos/jobs.js';
import type { JobHandler } from '../../jobs/queue.js';
import { composeMessage, SmtpError, SmtpPool } from '../../lib/mailer.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { PRODUCT, type RenderedMail } from './templates.js';

/**
 * The outbox. Every e-mail is composed once, when its cause happens (inside that cause's transaction), stored as
 * the exact bytes to send, and handed to the SMTP relay by an `email` job (any process runs it; a crash retries
 * it). The states say how far the hand-over went:
 *
 *   queued → sending → sent
 *          ↘ held (no SMTP configured: the instance owner reads it in the outbox)
 *   sending → failed (the relay refused it for good) | queued (it refused for now: retried with backoff)
 *   sending → uncertain (the connection ended after the message was written, or the process died while sending)
 *
 * `sending` is committed before the first byte of the message goes out, so a job run again after a crash finds
 * it and never sends a second time: it records `uncertain`, which only the owner can resend. A crash before that
 * point (connecting, signing in) leaves the message `queued`, and the next attempt sends it once.
 */

export const EMAIL_JOB = 'email';
/** Attempts of one message; with the backoff below they span about an hour. */
export const EMAIL_ATTEMPTS = 8;
/** Messages one process hands over at once. */
export const EMAILS_IN_FLIGHT_MAX = 2;

export type EmailCategory = 'security' | 'invitation' | 'notification' | 'digest';

export interface MailSettings {
  smtp?: SmtpConfig | undefined;
  publicUrl: string;
}

export function mailSettings(config: Config): MailSettings {
  return { smtp: config.smtp, publicUrl: config.publicUrl };
}

/** The From header: SMTP_FROM, or (held mail only, never sent) the product at the server's host. */
function sender(settings: MailSettings): { from: string; envelopeFrom: string } {
  if (settings.smtp) return { from: settings.smtp.from, envelopeFrom: settings.smtp.envelopeFrom };
  const address = `no-reply@${new URL(settings.publicUrl).hostname}`;
  return { from: `${PRODUCT} <${address}>`, envelopeFrom: address };
}

export interface OutgoingEmail {
  /** The cause, unique among messages: the same cause queued again (a job run twice) makes no second message. */
  dedupeKey: string;
  category: EmailCategory;
  kind: string;
  to: string;
  toUserId?: string | null;
  senderUserId?: string | null;
  organizationId?: string | null;
  /** The in-app notification this message carries: it is sent only if the recipient may still see it. */
  notificationId?: string | null;
  mail: RenderedMail;
  headers?: Record<string, string>;
}

/**
 * Queues a message in the caller's transaction; answers its id, or undefined when its cause already made one.
 * The caller wakes the job queues after committing (wakeJobQueues).
 */
export async function queueEmail(tx: Executor, settings: MailSettings, m: OutgoingEmail): Promise<string | undefined> {
  const id = newId();
  const { from, envelopeFrom } = sender(settings);
  const messageId = `<${id}@${new URL(settings.publicUrl).hostname}>`;
  const raw = await composeMessage({
    from,
    to: m.to,
    subject: m.mail.subject,
    text: m.mail.text,
    html: m.mail.html,
    messageId,
    ...(m.headers ? { headers: m.headers } : {}),
  });
  const now = nowIso();
  const row: EmailRow = {
    id,
    dedupe_key: m.dedupeKey,
    category: m.category,
    kind: m.kind,
    to_address: m.to.toLowerCase(),
    to_user_id: m.toUserId ?? null,
    sender_user_id: m.senderUserId ?? null,
    organization_id: m.organizationId ?? null,
    notification_id: m.notificationId ?? null,
    subject: m.mail.subject.slice(0, 300),
    message_id: messageId,
    envelope_from: envelopeFrom,
    raw,
    text_body: m.mail.text,
    html_body: m.mail.html,
    state: settings.smtp ? 'queued' : 'held',
    attempts: 0,
    last_error: null,
    smtp_reply: null,
    created_at: now,
    updated_at: now,
    send_started_at: null,
    sent_at: null,
  };
  if (!(await mail.insertEmailIfNew(tx, row))) return undefined;
  if (settings.smtp) await enqueueEmailJob(tx, id, now);
  return id;
}

function enqueueEmailJob(tx: Executor, id: string, now: string) {
  return enqueueJob(
    tx,
    { id: newId(), kind: EMAIL_JOB, key: id, payload: JSON.stringify({ id }), group_key: null },
    now,
  );
}

/** Backoff of a message the relay refused for now: 30 s, then doubling, at most an hour. */
export function emailRetryDelayMs(attempts: number): number {
  return Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

const UNCERTAIN_CRASH =
  'The server stopped while handing this message to the relay: it may have arrived. It is not sent again by itself.';
const UNCERTAIN_CUT =
  'The connection ended after the message was handed over, before the relay answered: it may have arrived. It is not sent again by itself.';

function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 2000);
}

/**
 * The `email` job: hands one stored message to the relay, at most once (see the top of this file). `stillWanted`
 * is asked just before a notification's message goes: false (its recipient may no longer see what it is about, or
 * no longer wants it by mail) makes it `suppressed`.
 */
export function emailJobHandler(
  db: Db,
  settings: MailSettings,
  stillWanted?: (notificationId: string) => Promise<boolean>,
): JobHandler {
  const pool = settings.smtp ? new SmtpPool(settings.smtp) : undefined;
  return {
    close: async () => pool?.close(),
    attempts: EMAIL_ATTEMPTS,
    retryDelayMs: emailRetryDelayMs,
    async run(payload) {
      const { id } = payload as { id: string };
      const message = await mail.findEmail(db, id);
      if (!message) return;
      if (message.state === 'sending') {
        await mail.moveEmail(db, id, ['sending'], {
          state: 'uncertain',
          last_error: UNCERTAIN_CRASH,
          updated_at: nowIso(),
        });
        return;
      }
      if (message.state !== 'queued') return;
      const smtp = settings.smtp;
      if (!smtp) {
        await mail.moveEmail(db, id, ['queued'], { state: 'held', updated_at: nowIso() });
        return;
      }
      if (message.notification_id && stillWanted && !(await stillWanted(message.notification_id))) {
        await mail.moveEmail(db, id, ['queued'], {
          state: 'suppressed',
          last_error: 'Not sent: its recipient may no longer see what it is about, or no longer wants it by e-mail',
          updated_at: nowIso(),
        });
        return;
      }
      if (!message.raw) {
        await mail.moveEmail(db, id, ['queued'], {
          state: 'failed',
          last_error: 'The message has no content',
          updated_at: nowIso(),
        });
        return;
      }
      let session;
      let reusable = false;
      try {
        session = await pool!.acquire();
      } catch (err) {
        // Nothing was handed over: the queue tries again later.
        await mail.moveEmail(db, id, ['queued'], { state: 'queued', last_error: messageOf(err), updated_at: nowIso() });
        throw err;
      }
      try {
        // The point of no return: from here a crash leaves `sending`, which is never sent again.
        const now = nowIso();
        const mine = await mail.moveEmail(
          db,
          id,
          ['queued'],
          { state: 'sending', send_started_at: now, updated_at: now },
          true,
        );
        if (!mine) return;
        let reply: string;
        try {
          reply = await session.send({ from: message.envelope_from, to: message.to_address }, message.raw);
        } catch (err) {
          const e = err instanceof SmtpError ? err : new SmtpError(messageOf(err), undefined, false, true);
          if (e.handedOver) {
            await mail.moveEmail(db, id, ['sending'], {
              state: 'uncertain',
              last_error: `${UNCERTAIN_CUT} (${e.message})`.slice(0, 2000),
              updated_at: nowIso(),
            });
            return;
          }
          if (e.permanent) {
            await mail.moveEmail(db, id, ['sending'], { state: 'failed', last_error: e.message, updated_at: nowIso() });
            return;
          }
          await mail.moveEmail(db, id, ['sending'], { state: 'queued', last_error: e.message, updated_at: nowIso() });
          throw e;
        }
        const at = nowIso();
        // A late answer after another process marked it uncertain is still the truth: it was sent.
        await mail.moveEmail(db, id, ['sending', 'uncertain'], {
          state: 'sent',
          sent_at: at,
          updated_at: at,
          smtp_reply: reply.slice(0, 1000),
          last_error: null,
          // The link of a security message must not stay readable in the database once it left.
          ...(message.category === 'security' ? { raw: null, text_body: null, html_body: null } : {}),
        });
        reusable = true;
      } finally {
        pool!.release(session, reusable);
      }
    },
    async giveUp(payload, error) {
      const { id } = payload as { id: string };
      await mail.moveEmail(db, id, ['queued'], {
        state: 'failed',
        last_error: `Gave up after ${EMAIL_ATTEMPTS} attempts: ${messageOf(error)}`.slice(0, 2000),
        updated_at: nowIso(),
      });
    },
  };
}

/**
 * Counts `amount` more events (one unless said) of `scope` for `key` in the current fixed window of `windowMs`;
 * true while the count is within `max`. One atomic statement: several processes counting at once never both pass
 * the last place.
 */
export async function takeRate(
  tx: Executor,
  scope: string,
  key: string,
  windowMs: number,
  max: number,
  { now = Date.now(), amount = 1 }: { now?: number; amount?: number } = {},
): Promise<boolean> {
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs).toISOString();
  return (await mail.incrementRate(tx, scope, key.toLowerCase().slice(0, 254), windowStart, amount)) <= max;
}

/**
 * Sends again a message that did not go (failed, uncertain) or was held: same bytes, same Message-ID, so a mail
 * client that already has it shows one. Answers false when the message is in another state.
 */
export async function resendEmail(tx: Executor, settings: MailSettings, id: string): Promise<boolean> {
  const now = nowIso();
  if (!settings.smtp) return false;
  const moved = await mail.moveEmail(tx, id, ['failed', 'uncertain', 'held'], {
    state: 'queued',
    last_error: null,
    updated_at: now,
  });
  if (moved) await enqueueEmailJob(tx, id, now);
  return moved;
}
