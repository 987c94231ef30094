import { describe, expect, it } from 'vitest';
import { explainSentence, defaultLevelToValue, valueToDefaultLevel } from './explain';

const space = { noun: 'space' as const, id: 's1' };

describe('explainSentence', () => {
  it('names the team, the level and the collection that contains the item', () => {
    expect(
      explainSentence(
        'edit',
        {
          rule: 'team-grant',
          role: 'edit',
          item: { object: 'collection', id: 'c1', title: 'Guides' },
          team: { id: 't1', title: 'Writers' },
        },
        space,
      ),
    ).toBe('Editor, because the team Writers has Edit on the collection Guides, which contains this space.');
  });

  it('says "this space" for the item itself, and words no access', () => {
    expect(
      explainSentence(
        null,
        { rule: 'default-level', role: null, item: { object: 'space', id: 's1', title: 'X' } },
        space,
      ),
    ).toBe('No access, because the default access of this space is "No access".');
    expect(explainSentence(null, { rule: 'guest', role: null }, space)).toMatch(/^No access, because they are a guest/);
    expect(explainSentence('admin', { rule: 'organization-admin', role: 'admin' }, space)).toBe(
      'Admin, because they are an admin of the organization.',
    );
    expect(explainSentence('admin', { rule: 'organization-admin', role: 'admin' }, space, 'you')).toBe(
      'Admin, because you are an admin of the organization.',
    );
    const granted = {
      rule: 'user-grant' as const,
      role: 'read' as const,
      item: { object: 'space' as const, id: 's1', title: 'X' },
    };
    expect(explainSentence('read', granted, space)).toBe('Reader, because they were given Read on this space.');
    expect(explainSentence('read', granted, space, 'you')).toBe('Reader, because you were given Read on this space.');
  });
});

describe('default level values', () => {
  it('round-trips null through "none"', () => {
    expect(valueToDefaultLevel(defaultLevelToValue(null))).toBeNull();
    expect(valueToDefaultLevel(defaultLevelToValue('inherit'))).toBe('inherit');
    expect(valueToDefaultLevel(defaultLevelToValue('edit'))).toBe('edit');
  });
});
