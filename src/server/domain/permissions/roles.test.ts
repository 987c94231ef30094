import { describe, expect, it } from 'vitest';
import { ROLES } from '../../../shared/contract/common.js';
import { asRole, atLeast, maxRole, rank } from './roles.js';

describe('roles', () => {
  it("ranks roles from admin (highest) down to read in the seed's order, with null (no access) below all", () => {
    const ranks = ROLES.map(rank);
    expect([...ranks].sort((a, b) => b - a)).toEqual(ranks);
    expect(new Set(ranks).size).toBe(ROLES.length);
    expect(rank('admin')).toBeGreaterThan(rank('create'));
    // A reviewer outranks an editor: reviewers edit and merge, editors do not merge.
    expect(rank('create')).toBeGreaterThan(rank('review'));
    expect(rank('review')).toBeGreaterThan(rank('edit'));
    expect(rank('edit')).toBeGreaterThan(rank('comment'));
    expect(rank('comment')).toBeGreaterThan(rank('read'));
    expect(rank('read')).toBeGreaterThan(rank(null));
  });

  it('atLeast compares by rank and is reflexive', () => {
    for (const role of ROLES) expect(atLeast(role, role)).toBe(true);
    expect(atLeast('admin', 'read')).toBe(true);
    expect(atLeast('edit', 'comment')).toBe(true);
    expect(atLeast('comment', 'edit')).toBe(false);
    expect(atLeast('review', 'edit')).toBe(true);
    expect(atLeast('edit', 'review')).toBe(false);
    expect(atLeast('create', 'admin')).toBe(false);
    for (const role of ROLES) expect(atLeast(null, role)).toBe(false);
  });

  it('maxRole picks the stronger role, null counting as nothing', () => {
    expect(maxRole('read', 'edit')).toBe('edit');
    expect(maxRole('admin', 'comment')).toBe('admin');
    expect(maxRole(null, 'read')).toBe('read');
    expect(maxRole('read', null)).toBe('read');
    expect(maxRole(null, null)).toBeNull();
  });

  it('asRole accepts only known roles; anything else (inherit, null, junk) is null', () => {
    for (const role of ROLES) expect(asRole(role)).toBe(role);
    expect(asRole('inherit')).toBeNull();
    expect(asRole(null)).toBeNull();
    expect(asRole('')).toBeNull();
    expect(asRole('Admin')).toBeNull();
    expect(asRole('owner')).toBeNull();
  });
});
