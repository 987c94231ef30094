import { describe, expect, it } from 'vitest';
import { TRANSLATION_LANGUAGES } from '../../../../shared/contract';
import { languageName, languageOptions, toggleLanguage } from './languages';

describe('languages', () => {
  it('names languages in English, regions included', () => {
    expect(languageName('fr')).toBe('French');
    expect(languageName('pt-br')).toBe('Brazilian Portuguese');
    expect(languageName('zh-tw')).toMatch(/Chinese/);
  });

  it('offers every code of the contract, once, sorted by name', () => {
    const options = languageOptions();
    expect(options.map((o) => o.code).sort()).toEqual([...TRANSLATION_LANGUAGES].sort());
    const sorted = [...options].sort((a, b) => a.name.localeCompare(b.name, 'en'));
    expect(options).toEqual(sorted);
  });

  it('toggles a language, keeping the contract order and no duplicates', () => {
    expect(toggleLanguage(['fr'], 'en', true)).toEqual(['en', 'fr']);
    expect(toggleLanguage(['en', 'fr'], 'fr', true)).toEqual(['en', 'fr']);
    expect(toggleLanguage(['en', 'fr'], 'en', false)).toEqual(['fr']);
    expect(toggleLanguage([], 'de', false)).toEqual([]);
  });
});
