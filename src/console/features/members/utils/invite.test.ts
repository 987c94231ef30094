import { describe, expect, it } from 'vitest';
import { inviteOutcome, inviteUrl, parseEmailList } from './invite';

describe('inviteUrl', () => {
  it('builds the console join address, escaping the ids', () => {
    expect(inviteUrl('https://docs.example.com', 'org1', 'inv1')).toBe('https://docs.example.com/join/org1/inv1');
    expect(inviteUrl('http://127.0.0.1:3123/', 'o', 'a/b')).toBe('http://127.0.0.1:3123/join/o/a%2Fb');
  });
});

describe('parseEmailList', () => {
  it('splits on commas, semicolons, spaces and lines, once per address', () => {
    expect(parseEmailList('a@x.test, b@x.test;c@x.test\n d@x.test  A@X.test')).toEqual([
      'a@x.test',
      'b@x.test',
      'c@x.test',
      'd@x.test',
    ]);
    expect(parseEmailList('  \n ')).toEqual([]);
  });

  it('takes the address of "Name <address>" entries as mail programs copy them', () => {
    expect(parseEmailList('Ada Lovelace <ada@x.test>, "Bob B" <bob@x.test>')).toEqual(['ada@x.test', 'bob@x.test']);
  });

  it('keeps what is not an address, for the form to name it', () => {
    expect(parseEmailList('ada@x.test nope')).toEqual(['ada@x.test', 'nope']);
  });
});

describe('inviteOutcome', () => {
  it('tells invitations sent, addresses left as they were, and addresses without an account', () => {
    expect(
      inviteOutcome(['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test'], { invited: 2, unknownEmails: ['d@x.test'] }),
    ).toEqual({ invited: 2, unchanged: 1, unknownEmails: ['d@x.test'] });
  });
});
