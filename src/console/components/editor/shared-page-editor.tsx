import { useEffect, useImperativeHandle, useMemo, useRef, useSyncExternalStore, type Ref } from 'react';
import VisualEditor, { type VisualEditorHandle } from './visual-editor';
import { collaboratorColor, openCollab, type CollabSession, type CollabState } from './collaboration';
import type { LinkTarget } from './link-dialog';

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
  ref?: Ref<SharedEditorHandle>;
}

function statusText(state: CollabState): string {
  if (state.connection === 'refused') return 'You cannot open this page for editing any more. Reload to see it.';
  if (state.connection === 'connecting') return 'Connecting…';
  if (state.connection === 'offline') return 'Offline: what you type is kept and sent when the connection is back.';
  if (state.readOnly) return 'Read only: you can watch the others edit.';
  return state.unsaved ? 'Saving…' : 'All changes saved';
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
  ref,
}: Props) {
  const session = useMemo(
    () => openCollab({ spaceId, number, pageId }, { name: me.name, color: collaboratorColor(me.id) }),
    [spaceId, number, pageId, me.id, me.name],
  );
  // Connected while shown.
  useEffect(() => {
    session.start();
    return () => session.stop();
  }, [session]);
  const editor = useRef<VisualEditorHandle | null>(null);
  useImperativeHandle(
    ref,
    () => ({
      flush: () => editor.current?.flush() ?? '',
      insertMarkdown: (markdown) => editor.current?.insertMarkdown(markdown),
      settle: () => session.written(),
    }),
    [session],
  );
  return (
    <SharedBody
      session={session}
      editorRef={editor}
      label={label}
      {...(filesUrl ? { filesUrl } : {})}
      {...(onFiles ? { onFiles } : {})}
      {...(onUpload ? { onUpload } : {})}
      {...(linkTargets ? { linkTargets } : {})}
    />
  );
}

function SharedBody({
  session,
  editorRef,
  label,
  filesUrl,
  onFiles,
  onUpload,
  linkTargets,
}: {
  session: CollabSession;
  editorRef: Ref<VisualEditorHandle>;
  label: string;
  filesUrl?: string;
  onFiles?: (files: File[]) => void;
  onUpload?: () => void;
  linkTargets?: LinkTarget[];
}) {
  const state = useSyncExternalStore(session.subscribe, session.state);
  const editable = state.connection !== 'connecting' && state.connection !== 'refused' && !state.readOnly;
  return (
    <div className="shared-editor">
      <div className="shared-editor-status">
        <span role="status" className={`shared-editor-connection shared-editor-${state.connection}`}>
          {statusText(state)}
        </span>
        {state.others.length > 0 && (
          <ul className="shared-editor-people" aria-label="Also on this page">
            {state.others.map((person, i) => (
              <li key={i} style={{ borderColor: person.color }}>
                {person.name}
              </li>
            ))}
          </ul>
        )}
      </div>
      <VisualEditor
        ref={editorRef}
        markdown=""
        onChange={() => undefined}
        label={label}
        collab={session}
        editable={editable}
        {...(filesUrl ? { filesUrl } : {})}
        {...(onFiles ? { onFiles } : {})}
        {...(onUpload ? { onUpload } : {})}
        {...(linkTargets ? { linkTargets } : {})}
      />
    </div>
  );
}
