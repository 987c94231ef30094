import { describe, expect, it } from 'vitest';
import { looksLikeEmail, moveActive } from './picker';

describe('moveActive', () => {
  it('moves down and up, wrapping around', () => {
    expect(moveActive(-1, 3, 'ArrowDown')).toBe(0);
    expect(moveActive(0, 3, 'ArrowDown')).toBe(1);
    expect(moveActive(2, 3, 'ArrowDown')).toBe(0);
    expect(moveActive(-1, 3, 'ArrowUp')).toBe(2);
    expect(moveActive(0, 3, 'ArrowUp')).toBe(2);
    expect(moveActive(2, 3, 'ArrowUp')).toBe(1);
  });

  it('jumps to the ends, and has nothing to move to in an empty list', () => {
    expect(moveActive(1, 3, 'Home')).toBe(0);
    expect(moveActive(1, 3, 'End')).toBe(2);
    expect(moveActive(0, 0, 'ArrowDown')).toBe(-1);
  });
});

describe('looksLikeEmail', () => {
  it('accepts an address, refuses a name', () => {
    expect(looksLikeEmail(' ada@example.com ')).toBe(true);
    expect(looksLikeEmail('ada')).toBe(false);
    expect(looksLikeEmail('ada@example')).toBe(false);
    expect(looksLikeEmail('a b@example.com')).toBe(false);
  });
});
