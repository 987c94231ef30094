/**
 * The console's theme: the system's (prefers-color-scheme) unless the person chose Light or Dark in the account
 * menu, remembered in this browser (localStorage). The rule lives in index.html's first script, which applies it
 * before the first paint and follows the system; this module reads and changes the choice through it.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

declare global {
  interface Window {
    /** Set by index.html: the storage key, and applying a choice (`null`: the system's; none: the stored one). */
    docspaceTheme: { key: string; apply: (choice?: 'light' | 'dark' | null) => void };
  }
}

export function themeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(window.docspaceTheme.key);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

export function setThemeChoice(choice: ThemeChoice): void {
  const { key, apply } = window.docspaceTheme;
  try {
    if (choice === 'system') localStorage.removeItem(key);
    else localStorage.setItem(key, choice);
  } catch {
    // Storage refused (private mode): the choice holds for this page only.
  }
  apply(choice === 'system' ? null : choice);
}
