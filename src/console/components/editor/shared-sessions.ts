import { openCollab, type CollabSession } from './collaboration';

/**
 * The shared pages of this tab (live collaboration), by page: the one an editor shows, or one connected ahead of its
 * editor (`prepareSharedPage`, with the timer that closes it when no editor takes it). Apart from the editor: the
 * editor route connects a page here as soon as it knows who edits, while the editor, which weighs far more, loads.
 */
const sessions = new Map<string, { session: CollabSession; me: string; timer?: ReturnType<typeof setTimeout> }>();
/** How long a page connected ahead waits for its editor. */
const PREPARED_MS = 15_000;

export type SharedPage = { spaceId: string; number: number; pageId: string };
const pageKey = (page: SharedPage) => `${page.spaceId}/${page.number}/${page.pageId}`;
const personKey = (me: { id: string; name: string }) => `${me.id}\n${me.name}`;

/**
 * Connects to a change request's shared page before its editor is on screen (the editor route's loader, as the
 * page's data loads): the server reads the page and sends it meanwhile, so the editor opens on a document already
 * there. The editor takes the session (`sessionFor`); one not taken in `PREPARED_MS` is closed.
 */
export function prepareSharedPage(page: SharedPage, me: { id: string; name: string }): void {
  const key = pageKey(page);
  if (sessions.has(key)) return;
  const session = openCollab(page, me);
  session.start();
  const timer = setTimeout(() => {
    if (sessions.get(key)?.session !== session) return;
    sessions.delete(key);
    session.stop();
  }, PREPARED_MS);
  sessions.set(key, { session, me: personKey(me), timer });
}

/** The session of the page for an editor: the one connected ahead, taken, or a new one. */
export function sessionFor(page: SharedPage, me: { id: string; name: string }): CollabSession {
  const key = pageKey(page);
  const entry = sessions.get(key);
  if (entry && entry.me === personKey(me)) {
    clearTimeout(entry.timer);
    delete entry.timer;
    return entry.session;
  }
  if (entry) {
    clearTimeout(entry.timer);
    entry.session.stop();
  }
  const session = openCollab(page, me);
  sessions.set(key, { session, me: personKey(me) });
  return session;
}

/** Holds `session` as the page's while its editor shows it, connected; answers what lets it go and disconnects it. */
export function showSession(page: SharedPage, me: { id: string; name: string }, session: CollabSession): () => void {
  const key = pageKey(page);
  sessions.set(key, { session, me: personKey(me) });
  session.start();
  return () => {
    if (sessions.get(key)?.session === session) sessions.delete(key);
    session.stop();
  };
}
