import { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { SmtpConfig } from '../config.js';

/**
 * SMTP through nodemailer, in the two steps the outbox needs (domain/mail/outbox.ts): `open` connects and signs in
 * (nothing handed over yet: a failure here is always safe to retry), then `send` hands one message over. `send`
 * says whether a failure came before the message's final dot was written (`handedOver: false`, safe to retry) or
 * after it (`handedOver: true`: the relay may have taken it, so it must not be sent again).
 */

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

function connectionOptions(smtp: SmtpConfig) {
  return {
    host: smtp.host,
    port: smtp.port,
    secure: smtp.tls === 'implicit',
    requireTLS: smtp.tls === 'starttls',
    ignoreTLS: smtp.tls === 'none',
    ...TIMEOUTS,
    ...(smtp.ca ? { tls: { ca: smtp.ca } } : {}),
  };
}

/** An SMTP failure as the outbox records it. */
export class SmtpError extends Error {
  constructor(
    message: string,
    /** The relay's answer (`550 5.1.1 no such user`), when it gave one. */
    readonly response: string | undefined,
    /** A 5xx answer other than 503: trying again would get the same. */
    readonly permanent: boolean,
    /** The message's final dot was written: the relay may have accepted it. */
    readonly handedOver: boolean,
  ) {
    super(message);
  }
}

interface NodemailerErrorLike {
  message: string;
  response?: string;
  responseCode?: number;
}

function smtpError(err: unknown, handedOver: boolean): SmtpError {
  const e = err as NodemailerErrorLike;
  const code = e.responseCode;
  const response = typeof e.response === 'string' && e.response ? e.response : undefined;
  // An answer from the relay settles the question: it refused, so nothing was accepted, whatever was written.
  const answered = code !== undefined && code >= 400;
  return new SmtpError(
    response ?? e.message ?? String(err),
    response,
    answered && code >= 500 && code !== 503,
    answered ? false : handedOver,
  );
}

export interface SmtpSession {
  /** Hands one message over; resolves with the relay's answer (`250 …`). */
  send(envelope: { from: string; to: string }, raw: string): Promise<string>;
  /** False once the connection ended or failed: it cannot carry another message. */
  readonly alive: boolean;
  close(): void;
}

/** Connects to the relay and signs in; throws an SmtpError (never handed over). */
export async function openSmtp(smtp: SmtpConfig): Promise<SmtpSession> {
  const conn = new SMTPConnection(connectionOptions(smtp));
  // Errors after the connection is up are delivered to the pending command's callback too; this keeps an
  // 'error' event without a listener from throwing. Either way the connection is done for.
  let alive = true;
  conn.on('error', () => (alive = false));
  conn.on('end', () => (alive = false));
  try {
    await new Promise<void>((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve())));
    if (smtp.auth) {
      const auth = smtp.auth;
      await new Promise<void>((resolve, reject) =>
        conn.login({ user: auth.user, pass: auth.pass }, (err) => (err ? reject(err) : resolve())),
      );
    }
  } catch (err) {
    conn.close();
    throw smtpError(err, false);
  }
  return {
    get alive() {
      return alive;
    },
    send(envelope, raw) {
      // The message is streamed from here, so we know whether its last byte (and so the final dot, which
      // nodemailer writes after it) went out before a failure.
      let ended = false;
      const body = Readable.from([Buffer.from(raw)]);
      body.on('end', () => (ended = true));
      return new Promise<string>((resolve, reject) =>
        conn.send({ from: envelope.from, to: [envelope.to] }, body, (err, info) =>
          err ? reject(smtpError(err, ended)) : resolve(info?.response ?? ''),
        ),
      );
    },
    close() {
      alive = false;
      conn.quit();
      setTimeout(() => conn.close(), 1_000).unref();
    },
  };
}

/**
 * Connections to the relay kept open between messages (a TLS handshake and a sign-in per message would bound the
 * outbox's throughput): at most `max` idle, each closed after `idleMs` unused. A connection that failed in any way
 * is never reused.
 */
export class SmtpPool {
  private idle: Array<{ session: SmtpSession; timer: NodeJS.Timeout }> = [];

  constructor(
    private readonly smtp: SmtpConfig,
    private readonly max = 4,
    private readonly idleMs = 5_000,
  ) {}

  async acquire(): Promise<SmtpSession> {
    for (let item = this.idle.pop(); item; item = this.idle.pop()) {
      clearTimeout(item.timer);
      if (item.session.alive) return item.session;
    }
    return openSmtp(this.smtp);
  }

  /** Gives a connection back after a message went through it (`reusable`), or closes it. */
  release(session: SmtpSession, reusable: boolean): void {
    if (!reusable || !session.alive || this.idle.length >= this.max) {
      session.close();
      return;
    }
    const item = {
      session,
      timer: setTimeout(() => {
        this.idle = this.idle.filter((i) => i !== item);
        session.close();
      }, this.idleMs),
    };
    item.timer.unref();
    this.idle.push(item);
  }

  close(): void {
    for (const { session, timer } of this.idle) {
      clearTimeout(timer);
      session.close();
    }
    this.idle = [];
  }
}

/** Connects and signs in, then leaves: the start-up check. Answers the reason it failed, or undefined. */
export async function checkSmtp(smtp: SmtpConfig): Promise<string | undefined> {
  try {
    (await openSmtp(smtp)).close();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export interface ComposedMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** `<id@host>` */
  messageId: string;
  headers?: Record<string, string>;
}

/** The MIME message, exactly as every attempt will send it. */
export async function composeMessage(m: ComposedMessage): Promise<string> {
  const buffer = await new MailComposer({
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    messageId: m.messageId,
    date: new Date(),
    headers: { 'Auto-Submitted': 'auto-generated', ...m.headers },
  })
    .compile()
    .build();
  return buffer.toString('utf8');
}
