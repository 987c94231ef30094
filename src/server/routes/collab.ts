import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer } from 'ws';
import * as Y from 'yjs';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import { parseCookie } from 'cookie';
import { Hocuspocus, MessageType, type Connection, type Document } from '@hocuspocus/server';
import type { Config } from '../config.js';
import type { Db } from '../storage/db.js';
import type { Notifier } from '../storage/notifier.js';
import { Urls } from '../lib/urls.js';
import { hashToken } from '../lib/secrets.js';
import { newId } from '../lib/ids.js';
import { InvalidError } from '../lib/errors.js';
import { authenticate } from '../domain/auth/service.js';
import type { Actor } from '../domain/permissions/resolver.js';
import {
  collabAccess,
  collabIdentity,
  CollabDocuments,
  REMOTE_ORIGIN,
  type CollabTarget,
} from '../domain/collab/documents.js';
import { COLLAB_NOT_WRITTEN, COLLAB_PATH, COLLAB_WRITTEN } from '../../shared/contract/collab.js';
import { CSRF_COOKIE, SESSION_COOKIE } from '../../shared/contract/constants.js';

/**
 * Live collaboration's WebSocket (`COLLAB_PATH`): the Hocuspocus protocol over the server's own port.
 *
 * - Who: the console's session (its cookie, with the CSRF cookie's value as the token, which another site cannot
 *   read) or an API token. Those who may edit the change request join with write access; its readers watch.
 *   Access is checked again after every change made through the API, on any process (a member removed, a session
 *   signed out, a change request merged: the socket is closed or turned read-only at once), and every few seconds
 *   (`COLLAB_RECHECK_SECONDS`: a session that ran out).
 * - Never losing an edit: each update a client sends is stored before it is applied and acknowledged.
 * - The change request's page is written from the shared document after a pause in typing (`debounce`), at least
 *   every `maxDebounce`, and when the last editor leaves; a change of the page made elsewhere reaches the editors
 *   (checked with access).
 * - Several processes on one PostgreSQL: a stored update, and cursors (awareness), are announced on the
 *   `collab` channel; a process holding that document applies it.
 */

/** Changes made through the API within this time are announced to the other processes together. */
const CHANGED_ANNOUNCE_MS = 100;
/** Largest message a client may send (an update pasting a long page). */
const MESSAGE_MAX_BYTES = 8 * 1024 * 1024;
const CHANNEL = 'collab';
/** Pages one person may have open together at once, on one process (each open page holds its document in memory). */
const CONNECTIONS_PER_USER_MAX = 20;

interface ConnectionContext {
  actor: Actor;
  /** Who the connection's cursor says it is: its account (the name as of connecting). */
  identity: { id: string; name: string };
  credential: { kind: 'api' | 'session'; token: string };
  target: CollabTarget;
}

/** Announced between processes: a stored update (`u`: its id) or cursors (`a`: an awareness update, base64). */
interface Announcement {
  p: string;
  n: string;
  u?: string;
  a?: string;
  /** The change request's page was written from the document. */
  w?: 1;
  /** The page could not be written from the document: why. */
  x?: string;
  /** Something was changed through the API (access, or a page): every process checks its connections again. */
  c?: 1;
}

/** The credential of a connection: an API token, or the session cookie with its CSRF value as the token. */
function credentialOf(
  headers: IncomingMessage['headers'],
  token: string,
): { kind: 'api' | 'session'; token: string; csrf?: string } {
  const cookies = headers.cookie ? parseCookie(headers.cookie) : {};
  const session = cookies[SESSION_COOKIE];
  if (session && token && token === cookies[CSRF_COOKIE]) return { kind: 'session', token: session, csrf: token };
  return { kind: 'api', token };
}

export function registerCollab(app: FastifyInstance, deps: { db: Db; config: Config; notifier: Notifier }) {
  const { db, config, notifier } = deps;
  // How often access, and the pages of the documents held here, are checked again when nothing was changed.
  const recheckMs = (config.collabRecheckSeconds ?? 2) * 1000;
  const urls = new Urls(config.publicUrl);
  const processId = newId();
  const targets = new Map<string, CollabTarget>();
  const announce = (message: Announcement) =>
    notifier.publish(db, CHANNEL, JSON.stringify(message)).catch((error) => app.log.warn({ err: error }, 'collab'));
  const documents = new CollabDocuments(db, urls, async (name, id) => announce({ p: processId, n: name, u: id }));

  /** Who the credential is now, and what they may do with the document; throws when nothing. */
  const access = async (headers: IncomingMessage['headers'], token: string, name: string) => {
    const credential = credentialOf(headers, token);
    const auth = credential.token
      ? await authenticate(db, credential.token, credential.kind, config.sessionTtlSeconds)
      : null;
    if (!auth || (credential.csrf !== undefined && auth.csrfHash !== hashToken(credential.csrf))) {
      throw new Error('Unauthorized');
    }
    const actor: Actor = { userId: auth.userId, ssoProviderId: auth.ssoProviderId };
    return {
      actor,
      credential: { kind: credential.kind, token: credential.token },
      ...(await collabAccess(db, urls, actor, name)),
    };
  };

  /** The connections of a user to this process. */
  const connectionsOf = (userId: string) => {
    let count = 0;
    for (const document of hocuspocus.documents.values()) {
      for (const connection of document.getConnections()) {
        if ((connection.context as Partial<ConnectionContext>).actor?.userId === userId) count++;
      }
    }
    return count;
  };

  /** Pages being written from their documents (awaited before the process ends). */
  const storing = new Set<Promise<void>>();

  const hocuspocus = new Hocuspocus({
    name: processId,
    quiet: true,
    debounce: 1000,
    maxDebounce: 5000,
    async onAuthenticate({ requestHeaders, token, documentName, connectionConfig }) {
      try {
        const found = await access(requestHeaders, token, documentName);
        if (connectionsOf(found.actor.userId) >= CONNECTIONS_PER_USER_MAX) throw new Error('Too many open pages');
        connectionConfig.readOnly = found.readOnly;
        targets.set(documentName, found.target);
        return {
          actor: found.actor,
          identity: await collabIdentity(db, found.actor.userId),
          credential: found.credential,
          target: found.target,
        } satisfies ConnectionContext;
      } catch (error) {
        app.log.debug({ err: error, documentName }, 'collab: refused');
        // The same answer whatever the reason (nothing says whether the page exists), and without a message, which
        // Hocuspocus would print for every refused connection.
        throw new Error('', { cause: error });
      }
    },
    async onLoadDocument({ documentName, document }) {
      const target = targets.get(documentName);
      if (!target) throw new Error('Not allowed to open this document');
      await documents.load(target, document);
      // Cursors of this process's editors go to the other processes.
      document.awareness.on(
        'update',
        (change: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
          if (origin === REMOTE_ORIGIN) return;
          const clients = [...change.added, ...change.updated, ...change.removed];
          const update = awarenessProtocol.encodeAwarenessUpdate(document.awareness, clients);
          void announce({ p: processId, n: documentName, a: Buffer.from(update).toString('base64') });
        },
      );
      return document;
    },
    // Stored before it is applied, so before the client hears it was saved.
    // Cursors are vouched for before they are applied.
    async beforeHandleMessage({ update, connection, document, documentName, context }) {
      const decoder = decoding.createDecoder(update);
      decoding.readVarString(decoder);
      const type = decoding.readVarUint(decoder);
      if (type === MessageType.Awareness) {
        vouch(document, connection, (context as ConnectionContext).identity, decoding.readVarUint8Array(decoder));
        return;
      }
      if (connection.readOnly || type !== MessageType.Sync) return;
      const step = decoding.readVarUint(decoder);
      // Sync step 2 (what the client has that the server had not) and updates.
      if (step !== 1 && step !== 2) return;
      const data = decoding.readVarUint8Array(decoder);
      // An update that changes nothing (the reply of a client with nothing new) is not stored.
      const decoded = Y.decodeUpdate(data);
      if (decoded.structs.length === 0 && decoded.ds.clients.size === 0) return;
      const id = await documents.append(db, documentName, data);
      await announce({ p: processId, n: documentName, u: id });
    },
    // Never throws: Hocuspocus runs it unawaited when the last editor leaves (a rejection there would end the
    // process). What was typed is stored already (collab_updates): a page not written now is written at the next
    // store, or when the document is opened again.
    async onStoreDocument({ documentName, document, context }) {
      const target = targets.get(documentName);
      const actor = (context as Partial<ConnectionContext>).actor;
      if (!target || !actor) return;
      const work = (async () => {
        await documents.write(target, document, actor);
        // The editors learn that the page holds what they typed (here and in the other processes).
        document.broadcastStateless(COLLAB_WRITTEN);
        await announce({ p: processId, n: documentName, w: 1 });
      })();
      storing.add(work);
      try {
        await work;
      } catch (error) {
        if (error instanceof InvalidError) {
          // Past a page's limits: the editors are told why (here and in the other processes).
          const why = error.issues?.[0]?.message ?? error.message;
          document.broadcastStateless(`${COLLAB_NOT_WRITTEN}${why}`);
          await announce({ p: processId, n: documentName, x: why });
        } else app.log.warn({ err: error, documentName }, 'collab: the page could not be written now');
      } finally {
        storing.delete(work);
      }
    },
    async afterUnloadDocument({ documentName }) {
      targets.delete(documentName);
    },
  });

  // Updates and cursors stored or sent by another process, for the documents held here.
  const unsubscribe = notifier.subscribe(CHANNEL, (payload) => {
    let message: Announcement;
    try {
      message = JSON.parse(payload) as Announcement;
    } catch {
      return;
    }
    if (message.p === processId) return;
    if (message.c) {
      recheckNow();
      return;
    }
    const document = hocuspocus.documents.get(message.n);
    if (!document || document.isLoading) return;
    if (message.w) document.broadcastStateless(COLLAB_WRITTEN);
    if (message.x) document.broadcastStateless(`${COLLAB_NOT_WRITTEN}${message.x}`);
    if (message.a) {
      awarenessProtocol.applyAwarenessUpdate(document.awareness, Buffer.from(message.a, 'base64'), REMOTE_ORIGIN);
    }
    if (message.u) {
      void documents.update(message.n, message.u).then((data) => {
        if (data && !document.isDestroyed) Y.applyUpdate(document, data, REMOTE_ORIGIN);
      });
    }
  });

  /** After a change, and every few seconds: access of each connection, and pages changed elsewhere. */
  const known = new Map<string, string>();
  let checking = false;
  /** A change came while checking: check again once done (changes coming together are checked together). */
  let again = false;
  const recheckNow = () => {
    if (checking) again = true;
    else void recheck();
  };
  const recheck = async () => {
    if (checking) return;
    if (hocuspocus.documents.size === 0) {
      known.clear();
      return;
    }
    checking = true;
    again = false;
    try {
      const held = [...hocuspocus.documents.values()].filter((d) => !d.isLoading && targets.has(d.name));
      const revisions = await documents.revisions(held.map((d) => targets.get(d.name)!.changeRequestId));
      for (const document of held) {
        const target = targets.get(document.name)!;
        const revision = revisions.get(target.changeRequestId);
        if (revision !== undefined && known.get(document.name) !== revision) {
          const first = !known.has(document.name);
          known.set(document.name, revision);
          // First held here (after a restart, updates stored but the page not yet written), or changed elsewhere.
          if ((await documents.follow(target, document)) || first) scheduleWrite(document);
        }
        for (const connection of document.getConnections()) await recheckConnection(connection, document);
      }
      for (const name of known.keys()) if (!hocuspocus.documents.has(name)) known.delete(name);
    } catch (error) {
      app.log.warn({ err: error }, 'collab: recheck failed');
    } finally {
      checking = false;
      if (again) recheckNow();
    }
  };
  const recheckConnection = async (connection: Connection, document: Document) => {
    const context = connection.context as ConnectionContext;
    const headers = connection.request.headers;
    const token =
      context.credential.kind === 'session'
        ? (parseCookie(headers.cookie ?? '')[CSRF_COOKIE] ?? '')
        : context.credential.token;
    try {
      const found = await access(headers, token, document.name);
      connection.readOnly = found.readOnly;
    } catch {
      connection.close({ code: 4403, reason: 'Forbidden' });
    }
  };
  const scheduleWrite = (document: Document) => {
    const editor = document.getConnections().find((c) => !c.readOnly);
    const context = editor?.context as ConnectionContext | undefined;
    const target = targets.get(document.name);
    if (!context || !target) return;
    void documents.write(target, document, context.actor).catch((error) => app.log.warn({ err: error }, 'collab'));
  };
  const timer = setInterval(() => void recheck(), recheckMs);
  timer.unref();

  // A change made through the API here: the connections held here are checked now, and the other processes are told
  // (those of a moment together, in one message).
  let announcing: NodeJS.Timeout | undefined;
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    if (reply.statusCode >= 400) return;
    recheckNow();
    announcing ??= setTimeout(() => {
      announcing = undefined;
      void announce({ p: processId, n: '', c: 1 });
    }, CHANGED_ANNOUNCE_MS);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MESSAGE_MAX_BYTES });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== COLLAB_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => hocuspocus.handleConnection(ws, request));
  };
  app.addHook('onListen', async () => {
    app.server.on('upgrade', onUpgrade);
  });
  app.addHook('preClose', async () => {
    clearInterval(timer);
    clearTimeout(announcing);
    app.server.off('upgrade', onUpgrade);
    // What was typed last is written before the process ends (and before the database closes): the writes waiting
    // to run, and those running (a last editor who just left).
    for (const document of hocuspocus.documents.values()) {
      const id = `onStoreDocument-${document.name}`;
      if (hocuspocus.debouncer.isDebounced(id)) await hocuspocus.debouncer.executeNow(id);
    }
    hocuspocus.closeConnections();
    for (const client of wss.clients) client.terminate();
    await Promise.allSettled([...storing]);
    (await unsubscribe)();
  });
}

/**
 * A connection's cursors (an awareness update) as the server vouches for them, applied before Hocuspocus applies
 * what the client sent (which then changes nothing: its clocks are no longer new). Each is named by the connection's
 * account, whatever the client wrote (a co-editor cannot pass for someone else). Clients send back the others'
 * cursors they were sent (the same clock: nothing changes, left out); changing a cursor shown now as someone else's
 * (a newer clock, or its removal) closes the connection. A cursor whose connection was lost may be taken again (the
 * same editor reconnecting), named by who takes it.
 */
function vouch(
  document: Document,
  connection: Connection,
  identity: { id: string; name: string },
  update: Uint8Array,
): void {
  const { awareness } = document;
  const decoder = decoding.createDecoder(update);
  const entries: Array<{ clientId: number; clock: number; state: unknown }> = [];
  for (let count = decoding.readVarUint(decoder); count > 0; count--) {
    const clientId = decoding.readVarUint(decoder);
    const clock = decoding.readVarUint(decoder);
    const state = JSON.parse(decoding.readVarString(decoder)) as unknown;
    const known = awareness.meta.get(clientId);
    const current = awareness.states.get(clientId) as { user?: { id?: unknown } } | undefined;
    const changes = !known || clock > known.clock || (clock === known.clock && state === null && current);
    if (!changes) continue;
    if (current && current.user?.id !== identity.id) {
      throw Object.assign(new Error('Not this connection’s cursor'), { code: 4403, reason: 'Forbidden' });
    }
    entries.push({ clientId, clock, state });
  }
  if (!entries.length) return;
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, entries.length);
  for (const { clientId, clock, state } of entries) {
    encoding.writeVarUint(encoder, clientId);
    encoding.writeVarUint(encoder, clock);
    const vouched =
      state && typeof state === 'object' ? { ...state, user: { id: identity.id, name: identity.name } } : null;
    encoding.writeVarString(encoder, JSON.stringify(vouched));
  }
  awarenessProtocol.applyAwarenessUpdate(awareness, encoding.toUint8Array(encoder), connection.webSocket);
}
