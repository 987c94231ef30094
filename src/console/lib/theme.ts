/**
 * The console's theme: the system's (prefers-color-scheme) unless the person chose Light or Dark in the account
 * menu, remembered in this browser (localStorage). index.html applies it before the first paint with the same
 * rule and follows the system as it changes; this module changes the choice.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_KEY = 'docspace-theme';

export function themeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

export function applyTheme(choice: ThemeChoice = themeChoice()): void {
  const dark = choice === 'dark' || (choice === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light');
}

export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage refused (private mode): the choice holds for this page only.
  }
  applyTheme(choice);
}
