import { TRANSLATION_LANGUAGES } from '../../../../shared/contract';
import type { TranslationLanguage } from '../../../../shared/contract';

let names: Intl.DisplayNames | undefined;
try {
  names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });
} catch {
  names = undefined;
}

/** "French", "Portuguese (Brazil)", "Cantonese"; the code itself when the browser has no name for it. */
export function languageName(code: TranslationLanguage): string {
  const tag = code.replace(/-(\w+)$/, (_m, region: string) => `-${region.toUpperCase()}`);
  const name = names?.of(tag);
  return name && name !== tag ? name : code;
}

/** Every language of the contract, sorted by name for the picker. */
export function languageOptions(): { code: TranslationLanguage; name: string }[] {
  return TRANSLATION_LANGUAGES.map((code) => ({ code, name: languageName(code) })).sort((a, b) =>
    a.name.localeCompare(b.name, 'en'),
  );
}

/** Adds or removes one language, keeping the contract's order, each once. */
export function toggleLanguage(
  current: readonly TranslationLanguage[],
  code: TranslationLanguage,
  on: boolean,
): TranslationLanguage[] {
  const chosen = new Set(current);
  if (on) chosen.add(code);
  else chosen.delete(code);
  return TRANSLATION_LANGUAGES.filter((language) => chosen.has(language));
}
