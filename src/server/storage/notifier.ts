import { EventEmitter } from 'node:events';
import pg from 'pg';
import { sql } from 'kysely';
import type { StorageConfig } from '../config.js';
import type { Executor } from './db.js';

/**
 * Messages between the server processes that share a database: on PostgreSQL, its LISTEN/NOTIFY (a message is
 * delivered once the transaction that sent it commits, to every process listening, the sender included); on
 * SQLite, where one process serves, within the process. Channels are named per schema, so that test suites
 * sharing a database each hear only their own.
 */
export interface Notifier {
  /** Sends `payload` (at most ~7,000 bytes) on `channel`, with `db`'s transaction when it is one. */
  publish(db: Executor, channel: string, payload: string): Promise<void>;
  /** Calls `listener` with each payload sent on `channel`; answers a function that stops it. */
  subscribe(channel: string, listener: (payload: string) => void): Promise<() => void>;
  close(): Promise<void>;
}

class LocalNotifier implements Notifier {
  private readonly events = new EventEmitter().setMaxListeners(0);
  async publish(_db: Executor, channel: string, payload: string) {
    // As PostgreSQL does, after the sender's turn (and so after its transaction, which ran before this call).
    queueMicrotask(() => this.events.emit(channel, payload));
  }
  async subscribe(channel: string, listener: (payload: string) => void) {
    this.events.on(channel, listener);
    return () => void this.events.off(channel, listener);
  }
  async close() {
    this.events.removeAllListeners();
  }
}

class PostgresNotifier implements Notifier {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly prefix: string,
  ) {}

  private name(channel: string): string {
    return `${this.prefix}${channel}`.toLowerCase().slice(0, 63);
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url });
      client.on('notification', (message) => {
        for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload ?? '');
      });
      // A lost connection is opened again on next use, listening to the same channels.
      client.on('error', () => undefined);
      client.on('end', () => {
        if (this.client === client) this.client = undefined;
        this.connecting = undefined;
        if (!this.closed && this.listeners.size) void this.connection().catch(() => undefined);
      });
      await client.connect();
      for (const channel of this.listeners.keys()) await client.query(`LISTEN "${channel}"`);
      this.client = client;
      return client;
    })();
    return this.connecting;
  }

  async publish(db: Executor, channel: string, payload: string) {
    await sql`select pg_notify(${this.name(channel)}, ${payload})`.execute(db);
  }

  async subscribe(channel: string, listener: (payload: string) => void) {
    const name = this.name(channel);
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
      const client = await this.connection();
      await client.query(`LISTEN "${name}"`);
    }
    set.add(listener);
    return () => void set.delete(listener);
  }

  async close() {
    this.closed = true;
    this.listeners.clear();
    const client = this.client ?? (this.connecting ? await this.connecting.catch(() => undefined) : undefined);
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

export function openNotifier(storage: StorageConfig): Notifier {
  if (storage.kind === 'sqlite') return new LocalNotifier();
  return new PostgresNotifier(storage.url, `${(storage.schema ?? 'public').replace(/[^a-zA-Z0-9_]/g, '_')}_`);
}
