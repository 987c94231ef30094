import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SITES_PREFIX } from '../lib/urls.js';
import { ServiceUnavailableError } from '../lib/errors.js';

/**
 * Admission: at most `inFlight` requests are worked on at once; the others wait their turn, taken in rotation
 * between callers (a credential, else an address), first come first served within one caller's requests.
 *
 * Without it, every request that arrived was worked on at once, and each of them, at every await, waited for a turn
 * of the event loop shared with all the others: under 200 connections of mixed load a request of many steps paid
 * that many turns, and over a thousand requests a minute took more than 2 s (up to 10), while a caller sending many
 * requests at once took turns from everyone. With few in work, a turn is short; the wait for admission is bounded by
 * the queue ahead, and a caller's own flood waits behind its own requests, not in front of another's.
 *
 * Not admitted through it: the health check (it must answer while the server is busy), and the immutable assets of
 * the console and the published sites (files read from memory).
 */
export interface AdmissionOptions {
  /** Requests worked on at once. */
  inFlight: number;
  /** Requests waiting at most; past it, a request answers 503 at once. */
  maxWaiting: number;
  /** Milliseconds a request may wait to be admitted; past it, it answers 503. */
  maxWaitMs: number;
}

export function defaultAdmission(): AdmissionOptions {
  const cores = os.availableParallelism();
  return { inFlight: 16 * cores, maxWaiting: 4096, maxWaitMs: 30_000 };
}

const BYPASS = [/^\/v1\/health(\?|$)/, /^\/assets\//, new RegExp(`^${SITES_PREFIX}/~assets/`)];

interface Waiter {
  admit: () => void;
  timer: NodeJS.Timeout;
}

export class Admission {
  private working = 0;
  private waiting = 0;
  /** Waiters by caller, and the callers with waiters in the order they take turns. */
  private readonly queues = new Map<string, Waiter[]>();
  private turn: string[] = [];

  constructor(private readonly options: AdmissionOptions) {}

  /** Resolves once the request may be worked on (true), or false when it may not (queue full, waited too long). */
  enter(caller: string): Promise<boolean> | true {
    if (this.working < this.options.inFlight && this.waiting === 0) {
      this.working++;
      return true;
    }
    if (this.waiting >= this.options.maxWaiting) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        admit: () => resolve(true),
        timer: setTimeout(() => {
          const queue = this.queues.get(caller);
          const at = queue?.indexOf(waiter) ?? -1;
          if (at < 0) return;
          queue!.splice(at, 1);
          this.waiting--;
          if (queue!.length === 0) this.forget(caller);
          resolve(false);
        }, this.options.maxWaitMs),
      };
      let queue = this.queues.get(caller);
      if (!queue) {
        this.queues.set(caller, (queue = []));
        this.turn.push(caller);
      }
      queue.push(waiter);
      this.waiting++;
    });
  }

  /** A request admitted is done: the next caller in turn gets its slot. */
  leave(): void {
    const caller = this.turn.shift();
    if (caller === undefined) {
      this.working--;
      return;
    }
    const queue = this.queues.get(caller)!;
    const next = queue.shift()!;
    this.waiting--;
    if (queue.length) this.turn.push(caller);
    else this.queues.delete(caller);
    clearTimeout(next.timer);
    next.admit();
  }

  private forget(caller: string): void {
    this.queues.delete(caller);
    this.turn = this.turn.filter((c) => c !== caller);
  }

  get stats() {
    return { working: this.working, waiting: this.waiting };
  }
}

/** Who is asking, for taking turns: a digest of the credential sent, else the client's address. */
function callerOf(request: FastifyRequest): string {
  const credential = request.headers.authorization ?? request.headers.cookie;
  return credential ? crypto.createHash('sha256').update(credential).digest('base64url').slice(0, 16) : request.ip;
}

const ADMITTED = Symbol('admitted');

export function registerAdmission(app: FastifyInstance, options: AdmissionOptions = defaultAdmission()): Admission {
  const admission = new Admission(options);
  const leave = (request: FastifyRequest) => {
    const r = request as FastifyRequest & { [ADMITTED]?: boolean };
    if (!r[ADMITTED]) return;
    r[ADMITTED] = false;
    admission.leave();
  };
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (BYPASS.some((re) => re.test(request.url))) return;
    const entered = admission.enter(callerOf(request));
    if (entered !== true && !(await entered)) {
      throw new ServiceUnavailableError('The server is busy with other work: try again shortly', 5);
    }
    (request as FastifyRequest & { [ADMITTED]?: boolean })[ADMITTED] = true;
    // The response's end, or its connection's, whichever comes: a client gone mid-request gives its slot back.
    reply.raw.once('close', () => leave(request));
  });
  app.addHook('onResponse', async (request) => leave(request));
  app.addHook('onRequestAbort', async (request) => leave(request));
  return admission;
}
