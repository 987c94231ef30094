import { describe, expect, it } from 'vitest';
import { initials } from './people';

describe('initials', () => {
  it('takes the first and last words of a name, or the start of an e-mail', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('Ada King Lovelace')).toBe('AL');
    expect(initials('ada')).toBe('A');
    expect(initials('grace.hopper@example.com')).toBe('GH');
    expect(initials('')).toBe('?');
    expect(initials('émile zola')).toBe('ÉZ');
  });
});
