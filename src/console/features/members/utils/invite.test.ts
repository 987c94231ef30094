import { describe, expect, it } from 'vitest';
import { inviteUrl } from './invite';

describe('inviteUrl', () => {
  it('builds the console join address, escaping the ids', () => {
    expect(inviteUrl('https://docs.example.com', 'org1', 'inv1')).toBe('https://docs.example.com/join/org1/inv1');
    expect(inviteUrl('http://127.0.0.1:3123/', 'o', 'a/b')).toBe('http://127.0.0.1:3123/join/o/a%2Fb');
  });
});
