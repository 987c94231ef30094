import { Extension, type Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, TextSelection, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/**
 * Find (and replace) in the page: the matches of what is sought are highlighted, the current one apart, and gone
 * through in order. Text is matched within each block, across its marks (`**bold** text` reads "bold text"),
 * ignoring case. At most FIND_MATCHES_MAX matches are found: a page of 100,000 "a"s costs no more than a page of
 * a thousand.
 */
export const FIND_MATCHES_MAX = 1000;

export interface FindState {
  query: string;
  matches: Array<{ from: number; to: number }>;
  /** The index of the current match (-1: none). */
  current: number;
  decorations: DecorationSet;
}

const key = new PluginKey<FindState>('find');
const EMPTY: FindState = { query: '', matches: [], current: -1, decorations: DecorationSet.empty };

/** The matches of `query` in `doc`, in order (at most FIND_MATCHES_MAX). */
export function findMatches(doc: PmNode, query: string): Array<{ from: number; to: number }> {
  const matches: Array<{ from: number; to: number }> = [];
  const sought = query.toLowerCase();
  if (!sought) return matches;
  doc.descendants((node, pos) => {
    if (matches.length >= FIND_MATCHES_MAX) return false;
    if (!node.isTextblock) return true;
    // The block's text, an object (an image, a line break) standing as one character: an index in it plus the
    // block's start is a position in the document.
    let text = '';
    node.forEach((child) => {
      text += child.isText ? child.text! : '\ufffc'.repeat(child.nodeSize);
    });
    const lower = text.toLowerCase();
    for (let at = lower.indexOf(sought); at >= 0; at = lower.indexOf(sought, at + sought.length)) {
      matches.push({ from: pos + 1 + at, to: pos + 1 + at + sought.length });
      if (matches.length >= FIND_MATCHES_MAX) break;
    }
    return false;
  });
  return matches;
}

function stateFor(doc: PmNode, query: string, near: number): FindState {
  const matches = findMatches(doc, query);
  // The current match: the first at or after `near` (where the writer is), else the first.
  let current = matches.findIndex((m) => m.from >= near);
  if (current < 0) current = matches.length ? 0 : -1;
  return { query, matches, current, decorations: decorate(doc, matches, current) };
}

function decorate(doc: PmNode, matches: FindState['matches'], current: number): DecorationSet {
  return DecorationSet.create(
    doc,
    matches.map((m, i) =>
      Decoration.inline(m.from, m.to, { class: i === current ? 'find-match-current' : 'find-match' }),
    ),
  );
}

export const Find = Extension.create({
  name: 'find',
  addProseMirrorPlugins() {
    return [
      new Plugin<FindState>({
        key,
        state: {
          init: () => EMPTY,
          apply(tr, previous) {
            const meta = tr.getMeta(key) as { query?: string; current?: number } | undefined;
            if (meta?.query !== undefined) return stateFor(tr.doc, meta.query, tr.selection.from);
            if (meta?.current !== undefined && previous.matches.length) {
              const current = (meta.current + previous.matches.length) % previous.matches.length;
              return { ...previous, current, decorations: decorate(tr.doc, previous.matches, current) };
            }
            if (!tr.docChanged || !previous.query) return previous;
            // The text changed (typed here or by someone else): found again, near where the current match was.
            const was = previous.matches[previous.current];
            return stateFor(tr.doc, previous.query, was ? tr.mapping.map(was.from) : tr.selection.from);
          },
        },
        props: { decorations: (state) => key.getState(state)?.decorations },
      }),
    ];
  },
});

export function findState(editor: Editor): FindState {
  return key.getState(editor.state) ?? EMPTY;
}

/** Seeks `query` (empty: finding stops), the current match the first at or after the cursor. */
export function seek(editor: Editor, query: string): void {
  editor.view.dispatch(editor.state.tr.setMeta(key, { query }));
  show(editor);
}

/** Moves to the next match (`step` 1) or the previous (-1), and shows it. */
export function step(editor: Editor, by: 1 | -1): void {
  const { current } = findState(editor);
  editor.view.dispatch(editor.state.tr.setMeta(key, { current: current + by }));
  show(editor);
}

/** The current match in view (selected, so that the writer can go on typing there once the find bar closes). */
function show(editor: Editor): void {
  const { matches, current } = findState(editor);
  const match = matches[current];
  if (!match) return;
  const tr = editor.state.tr.setSelection(TextSelection.create(editor.state.doc, match.from, match.to));
  editor.view.dispatch(tr.scrollIntoView());
  const { node } = editor.view.domAtPos(match.from);
  (node instanceof Element ? node : node.parentElement)?.scrollIntoView({ block: 'center' });
}

/** Replaces the current match with `text`, and moves to the next. */
export function replaceCurrent(editor: Editor, text: string): void {
  const { matches, current } = findState(editor);
  const match = matches[current];
  if (!match) return;
  editor.view.dispatch(replaceIn(editor.state.tr, [match], text));
  show(editor);
}

/** Replaces every match with `text`, in one step (one undo). Answers how many were replaced. */
export function replaceAll(editor: Editor, text: string): number {
  const { matches } = findState(editor);
  if (!matches.length) return 0;
  editor.view.dispatch(replaceIn(editor.state.tr, matches, text));
  return matches.length;
}

/** `tr` with `matches` replaced by `text`, the last first (positions before it stay true), marks kept. */
function replaceIn(tr: Transaction, matches: FindState['matches'], text: string): Transaction {
  for (const { from, to } of [...matches].reverse()) {
    if (text) tr.insertText(text, from, to);
    else tr.delete(from, to);
  }
  return tr;
}
