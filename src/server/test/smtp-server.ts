import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { SmtpConfig } from '../config.js';

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps what it receives, parsed with `mailparser`:
 * the peer tests deliver to. It can refuse recipients for now (4xx) or for good (5xx), or hang after the
 * message's data was received (never answering it), to test the outbox's retries and its crash safety.
 */

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  raw: string;
  mail: ParsedMail;
}

export interface SmtpBehaviour {
  /** Answer RCPT TO with this (451: try later, 550: no such user); undefined accepts. */
  rcpt?: (address: string) => { code: number; message: string } | undefined;
  /** Receive the whole message, then never answer (the connection stays open until the server closes). */
  hangAfterData?: boolean;
  /** Receive the whole message, then cut the connection without answering. */
  dropAfterData?: boolean;
  /** Require AUTH with these credentials. */
  auth?: { user: string; pass: string };
}

export interface TestSmtpServer {
  port: number;
  messages: ReceivedMail[];
  behaviour: SmtpBehaviour;
  /** The configuration that sends through this server. */
  config(from?: string): SmtpConfig;
  /** Messages sent to this address so far. */
  to(address: string): ReceivedMail[];
  /** Waits until `count` messages to `address` arrived (default one), up to `timeoutMs`. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpServer(behaviour: SmtpBehaviour = {}, listenPort = 0): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const waiting = new Set<() => void>();
  const server = new SMTPServer({
    logger: false,
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    // No reverse DNS look-up of the client (loopback): it took 100 ms a connection.
    disableReverseLookup: true,
    // A hung connection must not keep close() waiting.
    closeTimeout: 200,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      const wanted = state.behaviour.auth;
      if (wanted && (auth.username !== wanted.user || auth.password !== wanted.pass)) {
        return callback(new Error('Invalid username or password'));
      }
      callback(null, { user: auth.username });
    },
    onMailFrom(_address, session, callback) {
      if (state.behaviour.auth && !session.user) {
        return callback(Object.assign(new Error('Authentication required'), { responseCode: 530 }));
      }
      callback();
    },
    onRcptTo(address, _session, callback) {
      const answer = state.behaviour.rcpt?.(address.address);
      if (answer) return callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
      callback();
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        void simpleParser(raw).then((mail) => {
          messages.push({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            raw: raw.toString('utf8'),
            mail,
          });
          for (const wake of waiting) wake();
          if (state.behaviour.dropAfterData) {
            // smtp-server keeps its open connections in `connections`, each over `_socket`.
            const open = (server as unknown as { connections: Set<{ _socket: { destroy(): void } }> }).connections;
            for (const connection of open) connection._socket.destroy();
            return;
          }
          if (!state.behaviour.hangAfterData) callback(null, `queued as ${messages.length}`);
        });
      });
    },
  });
  const state = { behaviour };
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const to = (address: string) => messages.filter((m) => m.envelope.to.includes(address.toLowerCase()));
  return {
    port,
    messages,
    get behaviour() {
      return state.behaviour;
    },
    set behaviour(b: SmtpBehaviour) {
      state.behaviour = b;
    },
    config: (from = 'Docs <docs@docs.test>') => ({
      host: '127.0.0.1',
      port,
      tls: 'none',
      from,
      envelopeFrom: 'bounces@docs.test',
      ...(state.behaviour.auth ? { auth: state.behaviour.auth } : {}),
    }),
    to,
    async waitFor(address, count = 1, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (to(address).length < count) {
        if (Date.now() > deadline) {
          throw new Error(`expected ${count} message(s) to ${address}, got ${to(address).length}`);
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiting.delete(wake);
            resolve();
          };
          waiting.add(wake);
          setTimeout(wake, 100);
        });
      }
      return to(address);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
