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
 * For a writer who uses the visual editor, it starts loading with the page's data (the editor route's loader),
 * rather than once the editor's screen has loaded and run.
 */
export function preloadEditor(): void {
  if (typeof window !== 'undefined' && storedMode() === 'visual') void loadVisualEditor();
}
