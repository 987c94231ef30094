import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStorage, migrate, type Storage } from '../../storage/db.js';
import type { ContentPosition } from '../../../shared/contract/collections.js';
import { DomainError } from '../errors.js';
import { endPosition, movedPosition } from './positions.js';
import { newOrganizationRow } from '../../storage/repos/organizations.js';

/** Ordering and moves of collections and spaces, against a real (SQLite) database. */
describe('positions', () => {
  let dir: string;
  let storage: Storage;
  let org: string;
  let seq = 0;
  const now = new Date().toISOString();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-positions-'));
    storage = openStorage({ kind: 'sqlite', file: path.join(dir, 'p.sqlite') });
    await migrate(storage);
  });
  afterAll(async () => {
    await storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await storage.db.deleteFrom('spaces').execute();
    await storage.db.deleteFrom('collections').execute();
    seq += 1;
    org = `org${seq}`;
    await storage.db
      .insertInto('organizations')
      .values(newOrganizationRow(org, 'Org', now))
      .execute();
  });

  async function addCollection(id: string, position: string, parent: string | null = null) {
    await storage.db
      .insertInto('collections')
      .values({
        id,
        organization_id: org,
        parent_id: parent,
        title: id,
        description: null,
        default_level: 'inherit',
        position,
        created_by: 'u',
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  async function addSpace(id: string, position: string, parent: string | null = null, deleted = false) {
    await storage.db
      .insertInto('spaces')
      .values({
        id,
        organization_id: org,
        parent_id: parent,
        title: id,
        emoji: '',
        visibility: 'private',
        edit_mode: 'live',
        default_level: 'inherit',
        position,
        revision_id: 'r',
        comments: 0,
        change_requests: 0,
        change_requests_open: 0,
        change_requests_draft: 0,
        created_by: 'u',
        created_at: now,
        updated_at: now,
        deleted_at: deleted ? now : null,
      })
      .execute();
  }

  const space = (id: string) => ({ type: 'space' as const, space: id });
  const coll = (id: string) => ({ type: 'collection' as const, collection: id });

  function move(
    item: { type: 'space' | 'collection'; id: string; parentId: string | null },
    parentId: string | null,
    position?: ContentPosition,
  ) {
    return movedPosition(storage.db, org, item, parentId, position);
  }

  async function failure(p: Promise<unknown>): Promise<{ status: number; paths: string[] }> {
    try {
      await p;
    } catch (err) {
      if (err instanceof DomainError) return { status: err.status, paths: (err.issues ?? []).map((i) => i.path) };
      throw err;
    }
    throw new Error('expected the move to be refused');
  }

  describe('endPosition', () => {
    it('gives increasing keys as items are appended, across collections and spaces', async () => {
      const k1 = await endPosition(storage.db, org, null);
      await addCollection('c1', k1);
      const k2 = await endPosition(storage.db, org, null);
      expect(k2 > k1).toBe(true);
      await addSpace('s1', k2);
      const k3 = await endPosition(storage.db, org, null);
      expect(k3 > k2).toBe(true);
    });

    it('is per parent and per organization, and ignores spaces in the trash', async () => {
      await addCollection('p', 'a0');
      await addSpace('inside', 'a5', 'p');
      await addSpace('trashed', 'a9', null, true);
      const root = await endPosition(storage.db, org, null);
      expect(root > 'a0').toBe(true);
      expect(root < 'a9').toBe(true);
      const inside = await endPosition(storage.db, org, 'p');
      expect(inside > 'a5').toBe(true);
      expect(await endPosition(storage.db, 'some-other-org', null)).toBe(
        await endPosition(storage.db, `${org}-x`, null),
      );
    });

    it('stays ordered after many appends', async () => {
      let last = '';
      for (let i = 0; i < 80; i += 1) {
        const key = await endPosition(storage.db, org, null);
        expect(key > last).toBe(true);
        await addSpace(`s${i}`, key);
        last = key;
      }
    });
  });

  describe('movedPosition', () => {
    beforeEach(async () => {
      // Root order: A (space), B (collection), C (space), D (space)
      await addSpace('A', 'a0');
      await addCollection('B', 'a1');
      await addSpace('C', 'a2');
      await addSpace('D', 'a3');
    });

    it('moves to the end without a position', async () => {
      const key = await move({ type: 'space', id: 'A', parentId: null }, null);
      expect(key > 'a3').toBe(true);
    });

    it('places before a sibling, between it and its predecessor', async () => {
      const key = await move({ type: 'space', id: 'D', parentId: null }, null, { before: coll('B') });
      expect(key > 'a0' && key < 'a1').toBe(true);
      const first = await move({ type: 'space', id: 'D', parentId: null }, null, { before: space('A') });
      expect(first < 'a0').toBe(true);
    });

    it('places after a sibling, between it and its successor', async () => {
      const key = await move({ type: 'space', id: 'A', parentId: null }, null, { after: space('C') });
      expect(key > 'a2' && key < 'a3').toBe(true);
      const last = await move({ type: 'collection', id: 'B', parentId: null }, null, { after: space('D') });
      expect(last > 'a3').toBe(true);
    });

    it('accepts before and after when they are adjacent', async () => {
      const key = await move({ type: 'space', id: 'A', parentId: null }, null, {
        after: space('C'),
        before: space('D'),
      });
      expect(key > 'a2' && key < 'a3').toBe(true);
      // Adjacent once the moved item itself is left out.
      const around = await move({ type: 'collection', id: 'B', parentId: null }, null, {
        after: space('C'),
        before: space('D'),
      });
      expect(around > 'a2' && around < 'a3').toBe(true);
    });

    it('refuses before and after that are not adjacent (400 naming position)', async () => {
      const f = await failure(
        move({ type: 'space', id: 'D', parentId: null }, null, { after: space('A'), before: space('C') }),
      );
      expect(f).toEqual({ status: 400, paths: ['position'] });
      const reversed = await failure(
        move({ type: 'space', id: 'D', parentId: null }, null, { after: space('C'), before: space('A') }),
      );
      expect(reversed.status).toBe(400);
    });

    it('answers 409 when nothing would change', async () => {
      expect((await failure(move({ type: 'space', id: 'D', parentId: null }, null))).status).toBe(409);
      expect((await failure(move({ type: 'space', id: 'C', parentId: null }, null, { after: coll('B') }))).status).toBe(
        409,
      );
      expect(
        (await failure(move({ type: 'space', id: 'C', parentId: null }, null, { before: space('D') }))).status,
      ).toBe(409);
      expect(
        (await failure(move({ type: 'space', id: 'A', parentId: null }, null, { before: coll('B') }))).status,
      ).toBe(409);
      expect(
        (
          await failure(
            move({ type: 'collection', id: 'B', parentId: null }, null, { after: space('A'), before: space('C') }),
          )
        ).status,
      ).toBe(409);
    });

    it('refuses pointers that are not siblings in the target parent (400 naming the member)', async () => {
      await addSpace('nested', 'a0', 'B');
      const notSibling = await failure(
        move({ type: 'space', id: 'A', parentId: null }, null, { before: space('nested') }),
      );
      expect(notSibling).toEqual({ status: 400, paths: ['position.before'] });
      const unknown = await failure(move({ type: 'space', id: 'A', parentId: null }, null, { after: space('nope') }));
      expect(unknown).toEqual({ status: 400, paths: ['position.after'] });
      // The type must match: B is a collection, not a space.
      const wrongType = await failure(move({ type: 'space', id: 'A', parentId: null }, null, { after: space('B') }));
      expect(wrongType.status).toBe(400);
      const self = await failure(move({ type: 'space', id: 'A', parentId: null }, null, { before: space('A') }));
      expect(self).toEqual({ status: 400, paths: ['position.before'] });
    });

    it('does not accept a space in the trash as a pointer', async () => {
      await addSpace('T', 'a4', null, true);
      const f = await failure(move({ type: 'space', id: 'A', parentId: null }, null, { after: space('T') }));
      expect(f.status).toBe(400);
    });

    it('never reports a no-op when the parent changes', async () => {
      await addSpace('X', 'a0', 'B');
      // Into B's first (and only) slot: index 0 in an empty list of others, while A is at index 0 at the root.
      const key = await move({ type: 'space', id: 'A', parentId: null }, 'B', { before: space('X') });
      expect(key < 'a0').toBe(true);
      const end = await move({ type: 'space', id: 'D', parentId: null }, 'B');
      expect(end > 'a0').toBe(true);
    });

    it('places an item in an empty parent', async () => {
      await addCollection('E', 'a5');
      const key = await move({ type: 'space', id: 'A', parentId: null }, 'E');
      expect(typeof key).toBe('string');
      expect(key.length).toBeGreaterThan(0);
    });

    it('still gives a key when two siblings share a position (concurrent inserts)', async () => {
      await addCollection('P', 'b0');
      await addSpace('p1', 'a0', 'P');
      await addSpace('p2', 'a0', 'P');
      await addSpace('m', 'a1', 'P');
      const key = await move({ type: 'space', id: 'm', parentId: 'P' }, 'P', { after: space('p1') });
      expect(key > 'a0').toBe(true);
    });
  });
});
