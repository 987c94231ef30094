import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { ContentPosition, ContentPointer } from '../../../shared/contract/collections.js';
import type { Executor } from '../../storage/db.js';
import { siblings, lastPosition, setPosition } from '../../storage/repos/positions.js';
import { ConflictError, InvalidError } from '../errors.js';

/**
 * Order of collections and spaces within a parent: fractional keys (the fractional-indexing library), so a
 * move rewrites one row, never its siblings.
 */
export async function endPosition(db: Executor, organizationId: string, parentId: string | null): Promise<string> {
  return generateKeyBetween(await lastPosition(db, organizationId, parentId), null);
}

function pointerId(p: ContentPointer): string {
  return p.type === 'space' ? p.space : p.collection;
}

/**
 * Position key for `item` moved into `parentId` at `position` (end when absent). Throws 400 when a pointer is
 * not a sibling in the target parent, 409 when the move would change nothing.
 */
export async function movedPosition(
  db: Executor,
  organizationId: string,
  item: { type: 'space' | 'collection'; id: string; parentId: string | null },
  parentId: string | null,
  position: ContentPosition | undefined,
): Promise<string> {
  const all = await siblings(db, organizationId, parentId);
  const others = all.filter((s) => !(s.type === item.type && s.id === item.id));
  const find = (field: 'before' | 'after', p: ContentPointer) => {
    const id = pointerId(p);
    if (p.type === item.type && id === item.id)
      throw new InvalidError(`position.${field}`, 'cannot be the moved item itself');
    const index = others.findIndex((s) => s.type === p.type && s.id === id);
    if (index < 0) throw new InvalidError(`position.${field}`, `no such ${p.type} in the target parent`);
    return index;
  };
  // Index in `others` where the item will be inserted.
  let insertAt = others.length;
  if (position?.before && position.after) {
    const b = find('before', position.before);
    const a = find('after', position.after);
    if (a + 1 !== b) throw new InvalidError('position', 'before and after must be adjacent siblings');
    insertAt = b;
  } else if (position?.before) {
    insertAt = find('before', position.before);
  } else if (position?.after) {
    insertAt = find('after', position.after) + 1;
  }
  if (item.parentId === parentId) {
    const currentIndex = all.findIndex((s) => s.type === item.type && s.id === item.id);
    if (currentIndex === insertAt) throw new ConflictError('The move would not change anything');
  }
  const prev = others[insertAt - 1]?.position ?? null;
  const next = others[insertAt]?.position ?? null;
  const key = prev !== null && next !== null && next <= prev ? null : generateKeyBetween(prev, next);
  if (key !== null && key.length <= KEY_MAX) return key;
  // Keys grow when items keep moving into one gap (or two siblings ended up equal): renumber the siblings
  // evenly, which rewrites each of them once, and give the moved item its slot.
  const keys = generateNKeysBetween(null, null, others.length + 1);
  for (let i = 0; i < others.length; i++) {
    const sibling = others[i]!;
    await setPosition(db, sibling.type, sibling.id, keys[i < insertAt ? i : i + 1]!);
  }
  return keys[insertAt]!;
}

/** Longest position key kept before a parent's keys are renumbered. */
export const KEY_MAX = 48;
