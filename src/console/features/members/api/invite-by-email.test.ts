import { describe, expect, it } from 'vitest';
import { INVITE_EMAILS_MAX } from '../../../../shared/contract';
import { inviteByEmailFormSchema } from './invite-by-email';

const errorOf = (emails: string) =>
  inviteByEmailFormSchema.safeParse({ emails, role: 'read' }).error?.issues.map((issue) => issue.message);

describe('the invite-by-e-mail form', () => {
  it("turns the typed addresses into the contract's body", () => {
    expect(inviteByEmailFormSchema.parse({ emails: 'a@x.test,\nB@x.test a@x.test', role: 'edit' })).toEqual({
      emails: ['a@x.test', 'B@x.test'],
      role: 'edit',
    });
  });

  it('names what is not an address, and asks for one when there is none', () => {
    expect(errorOf('a@x.test, nope; b@')).toEqual(['Not e-mail addresses: nope, b@']);
    expect(errorOf('a@x.test nope')).toEqual(['Not an e-mail address: nope']);
    expect(errorOf(' \n ')).toEqual(['Enter at least one e-mail address']);
  });

  it("keeps to the contract's limit of addresses per request", () => {
    const many = Array.from({ length: INVITE_EMAILS_MAX + 1 }, (_, i) => `p${i}@x.test`).join(' ');
    expect(errorOf(many)).toEqual([`At most ${INVITE_EMAILS_MAX} addresses at a time`]);
  });
});
