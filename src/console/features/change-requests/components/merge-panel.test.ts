import { describe, expect, it } from 'vitest';
import type { ChangeRequest } from '../../../../shared/contract';
import { mergeBlocker } from './merge-panel';

const changeRequest = (overrides: Partial<ChangeRequest> = {}): ChangeRequest => ({
  object: 'change-request',
  id: 'cr',
  number: 1,
  status: 'open',
  subject: '',
  createdBy: { object: 'user', id: 'u', displayName: 'U', urls: { location: '' } },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  space: 's',
  revision: 'r2',
  revisionInitial: 'r1',
  comments: 0,
  outdated: false,
  conflicts: 0,
  urls: { app: '', location: '' },
  permissions: { edit: true, merge: true, review: true, comment: true },
  ...overrides,
});

describe('mergeBlocker', () => {
  it('lets an open change request with changes merge, outdated or not', () => {
    expect(mergeBlocker(changeRequest(), false, true)).toBeUndefined();
    expect(mergeBlocker(changeRequest({ outdated: true }), false, true)).toBeUndefined();
  });

  it('says why when it cannot: role, locked space, conflicts, archived, nothing to merge', () => {
    const noMerge = { edit: true, merge: false, review: false, comment: true };
    expect(mergeBlocker(changeRequest({ permissions: noMerge }), false, true)).toMatch(/review role/);
    expect(mergeBlocker(changeRequest(), true, true)).toMatch(/locked/);
    expect(mergeBlocker(changeRequest({ conflicts: 2 }), false, true)).toBe(
      '2 conflicts with the space must be resolved first.',
    );
    expect(mergeBlocker(changeRequest({ status: 'archived' }), false, true)).toMatch(/archived/);
    expect(mergeBlocker(changeRequest(), false, false)).toMatch(/nothing to merge/);
  });
});
