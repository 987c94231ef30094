import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD_HASH_COST,
  dummyPasswordHash,
  hashPassword,
  isPasswordHash,
  verifyPassword,
} from './secrets.js';

describe('password hashes', () => {
  it('are made at production strength by default (N=2^15, r=8, p=1), and verify', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(DEFAULT_PASSWORD_HASH_COST).toBe(15);
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(isPasswordHash(stored)).toBe(true);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
  });

  it('carry their cost, so a hash made at one cost verifies whatever the setting is now', async () => {
    const cheap = await hashPassword('pässword', 10);
    expect(cheap.split('$')[1]).toBe('1024');
    // NFKC: the composed and decomposed spellings of ä are one password.
    expect(await verifyPassword('pa\u0308ssword', cheap)).toBe(true);
    expect(await verifyPassword('password', cheap)).toBe(false);
  });

  it('give failed look-ups a dummy of the same cost as real hashes', async () => {
    expect((await dummyPasswordHash(10)).split('$')[1]).toBe('1024');
    expect((await dummyPasswordHash()).split('$')[1]).toBe('32768');
    expect(await dummyPasswordHash(10)).toBe(await dummyPasswordHash(10));
  });

  it('refuse what is not a hash of theirs', async () => {
    expect(isPasswordHash('!sso-only')).toBe(false);
    expect(await verifyPassword('anything', '!sso-only')).toBe(false);
  });
});
