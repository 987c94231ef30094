import { Extension } from '@tiptap/core';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import { yCursorPlugin } from '@tiptap/y-tiptap';
import { collaboratorColor, type Collaborator } from './collaboration';

/** The others' cursors and selections, with their names. */
export function collaborationCursors(provider: HocuspocusProvider) {
  return Extension.create({
    name: 'collaborationCursors',
    addProseMirrorPlugins() {
      return [
        yCursorPlugin(provider.awareness!, {
          cursorBuilder: (user: Partial<Collaborator>) => {
            const color = collaboratorColor(String(user.id ?? ''));
            const caret = document.createElement('span');
            caret.className = 'collab-caret';
            caret.style.borderColor = color;
            const label = document.createElement('span');
            label.className = 'collab-caret-label';
            label.style.backgroundColor = color;
            label.textContent = String(user.name ?? 'Someone');
            caret.append(label);
            return caret;
          },
          // The color is made here (from the id), never taken from what another client sent.
          selectionBuilder: (user: Partial<Collaborator>) => ({
            class: 'collab-selection',
            style: `background-color: color-mix(in srgb, ${collaboratorColor(String(user.id ?? ''))} 22%, transparent)`,
          }),
        }),
      ];
    },
  });
}
