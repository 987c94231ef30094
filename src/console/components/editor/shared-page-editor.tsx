import { useEffect, useImperativeHandle, useMemo, useRef, useSyncExternalStore, type Ref } from 'react';
import VisualEditor, { pages, type VisualEditorHandle } from './visual-editor';
import { collaboratorColor, type CollabSession, type CollabState } from './collaboration';
import { sessionFor, showSession } from './shared-sessions';
import type { LinkTarget } from './link-dialog';
import type { Suggestion } from './gitbook-views';

/** Where top-level block `block` of the editor starts in `markdown` (the page as the editor reads it). */
export function blockOffset(markdown: string, block: number): number {
  const page = pages.load(markdown);
  let nodes = 0;
  let at = page.head.length;
  for (const b of page.blocks) {
    if (nodes + b.nodes.length > block) return at;
    nodes += b.nodes.length;
    at += b.text.length + b.tail.length;
  }
  return markdown.length;
}

/** The editor's top-level block that holds character `offset` of `markdown`. */
export function blockAt(markdown: string, offset: number): number {
  const page = pages.load(markdown);
  let nodes = 0;
  let at = page.head.length;
  for (const b of page.blocks) {
    at += b.text.length + b.tail.length;
    if (offset < at) return nodes;
    nodes += b.nodes.length;
  }
  return Math.max(0, nodes - 1);
}

/** What the page form asks of the shared editor. */
export interface SharedEditorHandle extends VisualEditorHandle {
  /** Resolves once the server wrote the page from what was typed here (or after a few seconds). */
  settle(): Promise<void>;
}

interface Props {
  spaceId: string;
  number: number;
  pageId: string;
  me: { id: string; name: string };
  label: string;
  filesUrl?: string;
  onFiles?: (files: File[]) => void;
  onUpload?: () => void;
  linkTargets?: LinkTarget[];
  includeTargets?: Suggestion[];
  /** The top-level block to put the cursor in once the page is there (the writer's place in markdown). */
  caretBlock?: number;
  ref?: Ref<SharedEditorHandle>;
}

function statusText(state: CollabState): string {
  if (state.connection === 'refused') return 'You cannot open this page for editing any more. Reload to see it.';
  if (state.connection === 'connecting') return 'Connecting…';
  if (state.connection === 'offline') return 'Offline: what you type is kept and sent when the connection is back.';
  if (state.readOnly) return 'Read only: you can watch the others edit.';
  if (state.notWritten !== undefined) {
    return `Not saved to the change request: ${state.notWritten.replace(/\.$/, '')}. What is typed is kept here, and saved once the page can be.`;
  }
  return state.unsaved ? 'Saving…' : 'All changes saved';
}

const ignore = () => undefined;

/** Where the shared page stands (saved, offline, read only…), and who else is on it. */
function SharedStatus({ session }: { session: CollabSession }) {
  const state = useSyncExternalStore(session.subscribe, session.state);
  return (
    <div className="shared-editor-status">
      <span
        role="status"
        className={`shared-editor-connection shared-editor-${state.notWritten === undefined ? state.connection : 'not-written'}`}
      >
        {statusText(state)}
      </span>
      {state.others.length > 0 && (
        <ul className="shared-editor-people" aria-label="Also on this page">
          {state.others.map((person, i) => (
            <li key={i} style={{ borderColor: collaboratorColor(person.id) }}>
              {person.name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A change request's page in the visual editor, edited together: everyone on the page sees the others' changes and
 * cursors as they type (collaboration.ts). The server stores what is typed as it arrives and writes the change
 * request's page from it, so there is nothing to save.
 */
export default function SharedPageEditor({
  spaceId,
  number,
  pageId,
  me,
  label,
  filesUrl,
  onFiles,
  onUpload,
  linkTargets,
  includeTargets,
  caretBlock,
  ref,
}: Props) {
  const session = useMemo(
    () => sessionFor({ spaceId, number, pageId }, { id: me.id, name: me.name }),
    [spaceId, number, pageId, me.id, me.name],
  );
  // Connected while shown.
  useEffect(
    () => showSession({ spaceId, number, pageId }, { id: me.id, name: me.name }, session),
    [session, spaceId, number, pageId, me.id, me.name],
  );
  const editor = useRef<VisualEditorHandle | null>(null);
  useImperativeHandle(
    ref,
    () => ({
      flush: () => editor.current?.flush() ?? '',
      insertMarkdown: (markdown, filesUrl) => editor.current?.insertMarkdown(markdown, filesUrl),
      caretBlock: () => editor.current?.caretBlock(),
      placeCaret: (block) => editor.current?.placeCaret(block),
      settle: () => session.written(),
    }),
    [session],
  );
  // What the editor depends on; the rest of the state (which changes with every keystroke) is the status's.
  const connection = useSyncExternalStore(session.subscribe, () => session.state().connection);
  const readOnly = useSyncExternalStore(session.subscribe, () => session.state().readOnly);
  // The writer's place, once the page is there.
  const placed = useRef(false);
  const live = connection === 'live';
  useEffect(() => {
    if (!live || placed.current || caretBlock === undefined || !editor.current) return;
    placed.current = true;
    editor.current.placeCaret(caretBlock);
  }, [live, caretBlock]);
  const editable = connection !== 'connecting' && connection !== 'refused' && !readOnly;
  return (
    <div className="shared-editor">
      <SharedStatus session={session} />
      <VisualEditor
        ref={editor}
        markdown=""
        onChange={ignore}
        label={label}
        collab={session}
        editable={editable}
        {...(filesUrl ? { filesUrl } : {})}
        {...(onFiles ? { onFiles } : {})}
        {...(onUpload ? { onUpload } : {})}
        {...(linkTargets ? { linkTargets } : {})}
        {...(includeTargets ? { includeTargets } : {})}
      />
    </div>
  );
}
