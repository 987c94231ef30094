import { describe, expect, it } from 'vitest';
import { invitationBadge, invitationDetails, invitationsLabel } from './invitations';

describe('invitation wording', () => {
  it('says the role offered, with the right article, and who invited when known', () => {
    expect(invitationDetails({ role: 'edit', invitedBy: { displayName: 'Ada' } })).toBe('as an editor · from Ada');
    expect(invitationDetails({ role: 'read' })).toBe('as a reader');
    expect(invitationDetails({ role: 'admin' })).toBe('as an admin');
    expect(invitationDetails({ role: null })).toBe('as a guest');
  });

  it('counts on the menu badge up to 9, and nothing when there is none', () => {
    expect(invitationBadge(0)).toBeUndefined();
    expect(invitationBadge(3)).toBe('3');
    expect(invitationBadge(12)).toBe('9+');
    expect(invitationsLabel(1)).toBe('1 pending invitation');
    expect(invitationsLabel(2)).toBe('2 pending invitations');
  });
});
