import WebSocket from 'ws';
import * as Y from 'yjs';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { getSchema } from '@tiptap/core';
import { yXmlFragmentToProseMirrorRootNode } from '@tiptap/y-tiptap';
import { COLLAB_FIELD, COLLAB_PATH, collabDocumentName } from '../../shared/contract/collab.js';
import { editorExtensions, PageMarkdown } from '../../shared/editor/markdown-blocks.js';

/**
 * A collaborative editor as the console runs one, without the browser: a Yjs document synced with the server's
 * WebSocket through Hocuspocus's own provider, read and changed as markdown.
 */
const schema = getSchema(editorExtensions());
const pages = new PageMarkdown();

export interface CollabClient {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  /** The document as markdown (the blocks written anew). */
  markdown(): string;
  /** Appends a paragraph of `text` at the end of the document. */
  append(text: string): void;
  /** Resolves once the server acknowledged every change made here (stored it). */
  saved(timeoutMs?: number): Promise<void>;
  /** Resolves once `test` holds for the document (checked on each of its changes). */
  until(test: (markdown: string) => boolean, timeoutMs?: number): Promise<void>;
  /** Stops connecting again once the connection is lost (before a test kills the server under it). */
  stayDisconnected(): void;
  /** Resolves with the close event once the server closes the connection. */
  closed: Promise<{ code: number }>;
  /** Rejects once authentication is refused; resolves once synced. */
  ready: Promise<void>;
  destroy(): void;
}

function waitFor(test: () => boolean, subscribe: (check: () => void) => () => void, timeoutMs: number, what: string) {
  return new Promise<void>((resolve, reject) => {
    if (test()) return resolve();
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`${what}: not within ${timeoutMs} ms`));
    }, timeoutMs);
    const stop = subscribe(() => {
      if (!test()) return;
      clearTimeout(timer);
      stop();
      resolve();
    });
  });
}

export function collabClient(
  baseUrl: string,
  target: { spaceId: string; number: number; pageId: string },
  token: string,
): CollabClient {
  const doc = new Y.Doc();
  let closeEvent: (e: { code: number }) => void = () => undefined;
  const closed = new Promise<{ code: number }>((resolve) => (closeEvent = resolve));
  const websocket = new HocuspocusProviderWebsocket({
    url: baseUrl.replace(/^http/, 'ws') + COLLAB_PATH,
    WebSocketPolyfill: WebSocket as never,
    maxAttempts: 1,
  });
  let readyResolve: () => void = () => undefined;
  let readyReject: (e: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    readyResolve = resolve;
    readyReject = reject;
  });
  ready.catch(() => undefined);
  const provider = new HocuspocusProvider({
    websocketProvider: websocket,
    name: collabDocumentName(target.spaceId, target.number, target.pageId),
    document: doc,
    token,
    onSynced: () => readyResolve(),
    onAuthenticationFailed: ({ reason }) => readyReject(new Error(`authentication failed: ${reason}`)),
    onClose: ({ event }) => closeEvent({ code: event.code }),
  });
  provider.attach();
  const fragment = doc.getXmlFragment(COLLAB_FIELD);
  const json = () => yXmlFragmentToProseMirrorRootNode(fragment, schema).toJSON();
  const markdown = () => pages.manager.serialize(json());
  const onDoc = (check: () => void) => {
    doc.on('update', check);
    return () => doc.off('update', check);
  };
  return {
    doc,
    provider,
    markdown,
    append(text) {
      // A paragraph as the editor's binding writes one: an element holding its text.
      const paragraph = new Y.XmlElement('paragraph');
      paragraph.insert(0, [new Y.XmlText(text)]);
      doc.transact(() => fragment.push([paragraph]));
    },
    saved(timeoutMs = 10_000) {
      return waitFor(
        () => provider.unsyncedChanges === 0,
        (check) => {
          provider.on('unsyncedChanges', check);
          return () => provider.off('unsyncedChanges', check);
        },
        timeoutMs,
        'saved',
      );
    },
    until(test, timeoutMs = 10_000) {
      return waitFor(() => test(markdown()), onDoc, timeoutMs, 'document');
    },
    closed,
    ready,
    stayDisconnected() {
      websocket.shouldConnect = false;
    },
    destroy() {
      provider.destroy();
      websocket.destroy();
      doc.destroy();
    },
  };
}
