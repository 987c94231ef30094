/** Which editor a writer uses for pages (chosen above a page's content, remembered on the browser). */
export type EditorMode = 'visual' | 'markdown';
export const EDITOR_MODE_KEY = 'docspace.editor-mode';

/** The writer's choice of editor on this browser: the visual one unless they chose markdown. */
export function storedMode(): EditorMode {
  try {
    return window.localStorage.getItem(EDITOR_MODE_KEY) === 'markdown' ? 'markdown' : 'visual';
  } catch {
    return 'visual';
  }
}

/**
 * The visual editor, where a page is edited together (live collaboration): loaded only when someone edits with it
 * (it weighs more than the rest of the console page).
 */
export const loadVisualEditor = () => import('../../../components/editor/shared-page-editor');

/**
 * Who edits, as the shared editor names them to the others. The editor route's loader and the editor name them
 * alike: the session the loader connects ahead is the editor's only for the same person.
 */
export function editorIdentity(user: { id: string; displayName: string } | undefined): { id: string; name: string } {
  return { id: user?.id ?? '', name: user?.displayName ?? 'Someone' };
}

/**
 * For a writer who uses the visual editor, it starts loading with the page's data (the editor route's loader),
 * rather than once the editor's screen has loaded and run; with the page (`page`, edited by `me`), the editor also
 * connects to the shared page meanwhile, so that its content is on its way before the editor is on screen.
 */
export function preloadEditor(
  page?: { spaceId: string; number: number; pageId: string },
  me?: { id: string; name: string },
): void {
  if (typeof window === 'undefined' || storedMode() !== 'visual') return;
  void loadVisualEditor();
  // (Its connection apart, and first: a small module, evaluated long before the editor's.)
  if (page && me) {
    void import('../../../components/editor/shared-sessions').then((shared) => shared.prepareSharedPage(page, me));
  }
}
