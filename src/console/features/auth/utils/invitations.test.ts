import { describe, expect, it } from 'vitest';
import { aRole, invitationBadge, invitationDetails, invitationsLabel, raisesRole } from './invitations';

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

  it('says a role with its article, and whether a link would raise a member', () => {
    expect(aRole('comment')).toBe('a commenter');
    expect(aRole(null)).toBe('a guest');
    expect(raisesRole('read', 'edit')).toBe(true);
    expect(raisesRole(null, 'read')).toBe(true);
    expect(raisesRole('review', 'edit')).toBe(false);
    expect(raisesRole('admin', 'admin')).toBe(false);
    expect(raisesRole('read', null)).toBe(false);
  });
});
