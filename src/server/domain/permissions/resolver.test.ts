import { describe, expect, it } from 'vitest';
import type { Role } from '../../../shared/contract/common.js';
import { DomainError } from '../errors.js';
import {
  baseLevel,
  levelFor,
  requireLevel,
  requireOrgRole,
  highestGrant,
  OrgLevels,
  type OrgAccess,
} from './resolver.js';

const ME = { userId: 'me' };

function access(role: Role | null): OrgAccess {
  return {
    organizationId: 'org',
    role,
    membership: { organization_id: 'org', user_id: 'me', role, disabled: 0, joined_at: '', last_seen_at: null },
  };
}

function item(default_level: string | null, created_by = 'someone-else') {
  return { default_level, created_by };
}

function statusOf(fn: () => void): number | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (err instanceof DomainError) return err.status;
    throw err;
  }
}

describe('levelFor', () => {
  it('gives nothing to non-members', () => {
    expect(levelFor(null, ME, [item('admin')])).toBeNull();
  });

  it('gives admin to organization admins, whatever the default levels', () => {
    expect(levelFor(access('admin'), ME, [item(null)])).toBe('admin');
    expect(levelFor(access('admin'), ME, [item('read'), item(null)])).toBe('admin');
    expect(levelFor(access('admin'), ME, [])).toBe('admin');
  });

  it('gives nothing to guests, even through explicit default levels or as creators', () => {
    expect(levelFor(access(null), ME, [])).toBeNull();
    expect(levelFor(access(null), ME, [item('admin')])).toBeNull();
    expect(levelFor(access(null), ME, [item('inherit', 'me')])).toBeNull();
  });

  it('falls back to the organization role when every level is inherit (or there is no chain)', () => {
    expect(levelFor(access('edit'), ME, [])).toBe('edit');
    expect(levelFor(access('comment'), ME, [item('inherit'), item('inherit'), item('inherit')])).toBe('comment');
  });

  it('takes the first non-inherit level, nearest first, raising or lowering the org role', () => {
    expect(levelFor(access('read'), ME, [item('inherit'), item('edit'), item('admin')])).toBe('edit');
    expect(levelFor(access('create'), ME, [item('inherit'), item('comment'), item('admin')])).toBe('comment');
    expect(levelFor(access('edit'), ME, [item('read'), item('admin')])).toBe('read');
  });

  it('treats a null level as no access, stopping the walk', () => {
    expect(levelFor(access('create'), ME, [item(null), item('admin')])).toBeNull();
    expect(levelFor(access('edit'), ME, [item('inherit'), item(null)])).toBeNull();
  });

  it('makes members with the create role or higher admin of what they created', () => {
    expect(levelFor(access('create'), ME, [item(null, 'me')])).toBe('admin');
    expect(levelFor(access('create'), ME, [item('read', 'me')])).toBe('admin');
    expect(levelFor(access('create'), ME, [item('inherit', 'me'), item(null)])).toBe('admin');
  });

  it('applies the creator rule only to the item itself and only from the create role up', () => {
    // Created an ancestor, not the item.
    expect(levelFor(access('create'), ME, [item('inherit'), item('inherit', 'me')])).toBe('create');
    // Below the create role the creator rule does not apply.
    expect(levelFor(access('edit'), ME, [item('read', 'me')])).toBe('read');
    expect(levelFor(access('read'), ME, [item(null, 'me')])).toBeNull();
  });
});

describe('requireLevel', () => {
  it('is 404 without at least read, 403 when visible but too low, silent otherwise', () => {
    expect(statusOf(() => requireLevel(null, 'read', 'Space', 'view it'))).toBe(404);
    expect(statusOf(() => requireLevel(null, 'admin', 'Space', 'delete it'))).toBe(404);
    expect(statusOf(() => requireLevel('read', 'edit', 'Space', 'change it'))).toBe(403);
    expect(statusOf(() => requireLevel('edit', 'admin', 'Collection', 'move it'))).toBe(403);
    expect(statusOf(() => requireLevel('edit', 'edit', 'Space', 'change it'))).toBeUndefined();
    expect(statusOf(() => requireLevel('admin', 'read', 'Space', 'view it'))).toBeUndefined();
  });
});

describe('requireOrgRole', () => {
  it('is 403 below the needed role, including for guests', () => {
    expect(statusOf(() => requireOrgRole(access('edit'), 'create', 'create'))).toBe(403);
    expect(statusOf(() => requireOrgRole(access(null), 'read', 'read'))).toBe(403);
    expect(statusOf(() => requireOrgRole(access('create'), 'create', 'create'))).toBeUndefined();
    expect(statusOf(() => requireOrgRole(access('admin'), 'create', 'create'))).toBeUndefined();
  });
});

describe('OrgLevels', () => {
  // top (comment) ─ mid (inherit) ─ leaf (inherit);  hidden (null) ─ shown (edit);  mine (null, by me)
  const collections = [
    { id: 'top', parent_id: null, default_level: 'comment', created_by: 'x' },
    { id: 'mid', parent_id: 'top', default_level: 'inherit', created_by: 'x' },
    { id: 'leaf', parent_id: 'mid', default_level: 'inherit', created_by: 'x' },
    { id: 'hidden', parent_id: null, default_level: null, created_by: 'x' },
    { id: 'shown', parent_id: 'hidden', default_level: 'edit', created_by: 'x' },
    { id: 'mine', parent_id: null, default_level: null, created_by: 'me' },
  ];

  it('matches levelFor walking the chain of each collection', () => {
    const levels = new OrgLevels(access('create'), ME, collections);
    expect(levels.collection('top')).toBe('comment');
    expect(levels.collection('leaf')).toBe('comment');
    expect(levels.collection('hidden')).toBeNull();
    expect(levels.collection('shown')).toBe('edit');
    expect(levels.collection('mine')).toBe('admin');
    expect(levels.inherited(null)).toBe('create');
    expect(levels.inherited('mid')).toBe('comment');
  });

  it('computes space levels from the space level first, then its collections', () => {
    const levels = new OrgLevels(access('read'), ME, collections);
    expect(levels.space({ default_level: 'inherit', parent_id: 'leaf', created_by: 'x' })).toBe('comment');
    expect(levels.space({ default_level: 'admin', parent_id: 'hidden', created_by: 'x' })).toBe('admin');
    expect(levels.space({ default_level: 'inherit', parent_id: 'hidden', created_by: 'x' })).toBeNull();
    expect(levels.space({ default_level: 'inherit', parent_id: null, created_by: 'x' })).toBe('read');
    expect(levels.space({ default_level: null, parent_id: 'top', created_by: 'x' })).toBeNull();
  });

  it('lists the collections from which inherit gives access', () => {
    const levels = new OrgLevels(access('read'), ME, collections);
    expect(levels.visibleInheritParents().sort()).toEqual(['leaf', 'mid', 'shown', 'top']);
    const guest = new OrgLevels(access(null), ME, collections);
    expect(guest.visibleInheritParents()).toEqual([]);
    expect(guest.inherited(null)).toBeNull();
    expect(guest.space({ default_level: 'read', parent_id: null, created_by: 'x' })).toBeNull();
  });

  it('gives admins admin on every space without walking', () => {
    const levels = new OrgLevels(access('admin'), ME, []);
    expect(levels.space({ default_level: null, parent_id: 'unknown', created_by: 'x' })).toBe('admin');
  });

  describe('with grants (rule 6)', () => {
    const grants = {
      spaces: new Map<string, Role>([['granted-space', 'edit']]),
      collections: new Map<string, Role>([
        ['hidden', 'review'],
        ['mid', 'read'],
      ]),
    };

    it('raise the level of the granted item and of everything inside a granted collection', () => {
      const levels = new OrgLevels(access('read'), ME, collections, grants);
      expect(levels.collection('hidden')).toBe('review');
      // The review grant on `hidden` reaches `shown` and raises its edit default level (a reviewer outranks an
      // editor); the read grant on `leaf` below only raises, so it changes nothing there (below).
      expect(levels.collection('shown')).toBe('review');
      expect(levels.space({ id: 'x', default_level: null, parent_id: 'shown', created_by: 'x' })).toBe('review');
      expect(levels.space({ id: 'granted-space', default_level: null, parent_id: null, created_by: 'x' })).toBe('edit');
      // A read grant below a comment default level changes nothing.
      expect(levels.collection('leaf')).toBe('comment');
      expect(levels.grantedParents().sort()).toEqual(['hidden', 'leaf', 'mid', 'shown']);
    });

    it('give guests what was granted to them, and nothing else', () => {
      const guest = new OrgLevels(access(null), ME, collections, grants);
      expect(guest.collection('top')).toBeNull();
      expect(guest.collection('mid')).toBe('read');
      expect(guest.space({ id: 'granted-space', default_level: null, parent_id: null, created_by: 'x' })).toBe('edit');
      expect(guest.space({ id: 'other', default_level: 'admin', parent_id: null, created_by: 'x' })).toBeNull();
      expect(guest.visibleCollections().sort()).toEqual(['hidden', 'leaf', 'mid', 'shown']);
    });

    it('highestGrant takes the most powerful role and ignores unknown values', () => {
      expect(highestGrant(['read', 'admin', 'edit'])).toBe('admin');
      expect(highestGrant([undefined, null, 'bogus'])).toBeNull();
      expect(highestGrant([])).toBeNull();
    });
  });
});

describe('baseLevel (the reasons behind levelFor)', () => {
  it('names the rule that decided, with the index of the item whose default level it was', () => {
    expect(baseLevel(null, ME, [item('admin')]).reasons).toEqual([{ rule: 'no-membership', role: null }]);
    expect(baseLevel(access('admin'), ME, [item(null)]).reasons).toEqual([
      { rule: 'organization-admin', role: 'admin' },
    ]);
    expect(baseLevel(access(null), ME, [item('edit')]).reasons).toEqual([{ rule: 'guest', role: null }]);
    expect(baseLevel(access('comment'), ME, [item('inherit'), item('inherit')]).reasons).toEqual([
      { rule: 'organization-role', role: 'comment' },
    ]);
    expect(baseLevel(access('read'), ME, [item('inherit'), item('inherit'), item('edit')])).toEqual({
      level: 'edit',
      reasons: [{ rule: 'default-level', role: 'edit', at: 2 }],
    });
    expect(baseLevel(access('edit'), ME, [item(null)]).reasons).toEqual([{ rule: 'default-level', role: null, at: 0 }]);
  });

  it('puts the creator rule before the default level it overrides', () => {
    expect(baseLevel(access('create'), ME, [item('read', 'me')])).toEqual({
      level: 'admin',
      reasons: [
        { rule: 'creator', role: 'admin' },
        { rule: 'default-level', role: 'read', at: 0 },
      ],
    });
  });
});
