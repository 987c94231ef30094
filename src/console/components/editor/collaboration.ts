import { HocuspocusProvider, HocuspocusProviderWebsocket, WebSocketStatus } from '@hocuspocus/provider';
import * as Y from 'yjs';
import { COLLAB_NOT_WRITTEN, COLLAB_PATH, COLLAB_WRITTEN, collabDocumentName } from '../../../shared/contract/collab';
import { CSRF_COOKIE } from '../../../shared/contract/constants';
import { readCookie } from '../../lib/api-client';

/**
 * The console's side of live collaboration: a page of a change request opened in the visual editor is a Yjs
 * document shared with everyone editing it, through the server's WebSocket (Hocuspocus's provider). The session
 * cookie authenticates the socket; the CSRF cookie's value, which only the console can read, is its token. This
 * module holds no editor (Yjs and the provider only): a page is connected with it while the editor still loads.
 */

/** Someone on a shared page, as the server vouches for them (their account; their color follows from its id). */
export interface Collaborator {
  id: string;
  name: string;
}

/** Where a shared page stands, as the editor shows it. */
export interface CollabState {
  /**
   * connecting: not yet synced; live: in step with the server; offline: lost, typing kept and sent on return;
   * refused: the server does not let this session open the page.
   */
  connection: 'connecting' | 'live' | 'offline' | 'refused';
  /** The server may refuse what is typed here (a reader, or a change request that can no longer change). */
  readOnly: boolean;
  /** Changes typed here that the server has not yet stored. */
  unsaved: boolean;
  /** The others in the page now. */
  others: Collaborator[];
  /**
   * Why the change request's page could not be written from what was typed (past a page's limits), until it is
   * written again. What was typed is stored all the same.
   */
  notWritten?: string | undefined;
}

export interface CollabSession {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  /** Calls `listener` on each change of the state; answers a function that stops it. */
  subscribe(listener: () => void): () => void;
  state(): CollabState;
  /** Resolves once the server wrote the page from what was typed here (at most `ms` later). */
  written(ms?: number): Promise<void>;
  /**
   * Connects (again), and stops: a session is made first, then connected while it is shown. Starting a started
   * session (or stopping a stopped one) does nothing.
   */
  start(): void;
  stop(): void;
}

/** A color of a person's cursor, the same for them everywhere, dark enough for white text on it (WCAG AA). */
export function collaboratorColor(id: string): string {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360} 65% 26%)`;
}

/** The shared document of a change request's page, as `me` edits it (connected by `start`). */
export function openCollab(
  target: { spaceId: string; number: number; pageId: string },
  me: Collaborator,
): CollabSession {
  const doc = new Y.Doc();
  const listeners = new Set<() => void>();
  let state: CollabState = { connection: 'connecting', readOnly: false, unsaved: false, others: [] };
  const set = (patch: Partial<CollabState>) => {
    const next = { ...state, ...patch };
    // Only a change is told (awareness and unsaved changes come with every keystroke): the editor's status, not the
    // editor, renders again.
    const same = (Object.keys(patch) as (keyof CollabState)[]).every((key) =>
      key === 'others' ? JSON.stringify(next.others) === JSON.stringify(state.others) : next[key] === state[key],
    );
    if (same) return;
    state = next;
    for (const listener of listeners) listener();
  };
  let typedSinceWritten = false;
  let started = false;
  const waiting = new Set<() => void>();
  const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${COLLAB_PATH}`;
  const websocket = new HocuspocusProviderWebsocket({ url, autoConnect: false });
  const provider = new HocuspocusProvider({
    websocketProvider: websocket,
    name: collabDocumentName(target.spaceId, target.number, target.pageId),
    document: doc,
    token: () => readCookie(CSRF_COOKIE) ?? '',
    onSynced: () => set({ connection: 'live' }),
    onAuthenticated: ({ scope }) => set({ readOnly: scope === 'readonly' }),
    onAuthenticationFailed: () => set({ connection: 'refused' }),
    onStatus: ({ status }) => {
      if (status === WebSocketStatus.Disconnected && state.connection !== 'refused') set({ connection: 'offline' });
    },
    onUnsyncedChanges: ({ number }) => set({ unsaved: number > 0 }),
    onStateless: ({ payload }) => {
      if (payload.startsWith(COLLAB_NOT_WRITTEN)) {
        set({ notWritten: payload.slice(COLLAB_NOT_WRITTEN.length) });
        return;
      }
      if (payload !== COLLAB_WRITTEN) return;
      if (state.notWritten !== undefined) set({ notWritten: undefined });
      if (provider.unsyncedChanges > 0) return;
      typedSinceWritten = false;
      for (const resolve of waiting) resolve();
      waiting.clear();
    },
    onAwarenessChange: ({ states }) => {
      const others = states
        .filter((s) => s.clientId !== doc.clientID && s.user)
        .map((s) => ({ id: String(s.user.id ?? ''), name: String(s.user.name ?? 'Someone') }));
      set({ others });
    },
  });
  provider.setAwarenessField('user', me);
  // The browser knows first that the network is gone (a socket may take long to notice): offline at once, and
  // connected again (sending what was typed meanwhile) when it is back.
  const goneOffline = () => {
    websocket.disconnect();
    set({ connection: 'offline' });
  };
  const backOnline = () => void websocket.connect();
  doc.on('update', (_update: Uint8Array, origin: unknown) => {
    if (origin !== provider) typedSinceWritten = true;
  });
  return {
    doc,
    provider,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    state: () => state,
    written(ms = 6000) {
      if (!typedSinceWritten || state.readOnly) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiting.delete(done);
          resolve();
        }, ms);
        waiting.add(done);
      });
    },
    start() {
      if (started) return;
      started = true;
      provider.attach();
      void websocket.connect();
      window.addEventListener('offline', goneOffline);
      window.addEventListener('online', backOnline);
    },
    stop() {
      if (!started) return;
      started = false;
      window.removeEventListener('offline', goneOffline);
      window.removeEventListener('online', backOnline);
      provider.detach();
      websocket.disconnect();
      set({ connection: 'connecting' });
    },
  };
}
