import { useEffect, useId, useRef, useState } from 'react';
import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { FIND_MATCHES_MAX, findState, replaceAll, replaceCurrent, seek, step } from './find';

/**
 * The find bar over the page (Ctrl/⌘+F in the text, or the toolbar's Find): what is typed is sought as it is typed,
 * Enter and Shift+Enter go to the next and previous match, Escape closes it and gives the text back at the match.
 * Writers may replace the current match or all of them (one undo).
 */
export function FindBar({ editor, focus, onClose }: { editor: Editor; focus: number; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const input = useRef<HTMLInputElement>(null);
  // Each Ctrl/⌘+F (a new `focus`) takes the writer to the field, what it holds selected.
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [focus]);
  const [replacement, setReplacement] = useState('');
  const [replaced, setReplaced] = useState<number | undefined>();
  const id = useId();
  const { count, current } = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      const state = findState(e);
      return { count: state.matches.length, current: state.current };
    },
  });
  const close = () => {
    seek(editor, '');
    onClose();
    // At once (the focus command waits a frame): the next key typed goes to the page, not the closing bar.
    editor.view.focus();
  };
  const status = !query
    ? ''
    : count === 0
      ? 'No match'
      : `${current + 1} of ${count}${count >= FIND_MATCHES_MAX ? '+' : ''}`;
  return (
    <div
      className="find-bar"
      role="search"
      aria-label="Find in the page"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          close();
        }
      }}
    >
      <div className="find-bar-row">
        <label htmlFor={`${id}-find`} className="visually-hidden">
          Find
        </label>
        <input
          id={`${id}-find`}
          className="input find-bar-input"
          placeholder="Find in the page"
          ref={input}
          value={query}
          autoComplete="off"
          onChange={(event) => {
            setQuery(event.target.value);
            setReplaced(undefined);
            seek(editor, event.target.value);
          }}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            step(editor, event.shiftKey ? -1 : 1);
          }}
        />
        <span className="find-bar-status" role="status">
          {replaced !== undefined ? `Replaced ${replaced}` : status}
        </span>
        <button type="button" className="find-bar-button" disabled={!count} onClick={() => step(editor, -1)}>
          Previous
        </button>
        <button type="button" className="find-bar-button" disabled={!count} onClick={() => step(editor, 1)}>
          Next
        </button>
        <button type="button" className="find-bar-button" aria-label="Close find" onClick={close}>
          ✕
        </button>
      </div>
      {editor.isEditable && (
        <div className="find-bar-row">
          <label htmlFor={`${id}-replace`} className="visually-hidden">
            Replace with
          </label>
          <input
            id={`${id}-replace`}
            className="input find-bar-input"
            placeholder="Replace with"
            value={replacement}
            autoComplete="off"
            onChange={(event) => setReplacement(event.target.value)}
          />
          <button
            type="button"
            className="find-bar-button"
            disabled={!count}
            onClick={() => {
              replaceCurrent(editor, replacement);
              // (The button is disabled once nothing is left to replace: the writer stays in the bar.)
              input.current?.focus();
            }}
          >
            Replace
          </button>
          <button
            type="button"
            className="find-bar-button"
            disabled={!count}
            onClick={() => {
              setReplaced(replaceAll(editor, replacement));
              input.current?.focus();
            }}
          >
            Replace all
          </button>
        </div>
      )}
    </div>
  );
}
