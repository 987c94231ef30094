import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import { InvalidError } from '../errors.js';
import { KEY_MAX } from '../content/positions.js';

/** One item among siblings of the site structure. */
export interface Placed {
  type: string;
  id: string;
  position: string;
}

export interface Pointer {
  type: string;
  id: string;
}

/** Key after the last sibling. */
export function endKey(siblings: Placed[]): string {
  const last = siblings.reduce<string | null>((max, s) => (max === null || s.position > max ? s.position : max), null);
  return generateKeyBetween(last, null);
}

/**
 * Where `item` goes among `siblings` (which may include it): before a sibling, after one, between two adjacent
 * ones, or at the end. Returns the item's new key, and the keys of siblings to rewrite when keys had grown too
 * long (they are renumbered evenly). A pointer that is not a sibling is a 400 naming `field.before`/`field.after`.
 */
export function placeAmong(
  siblings: Placed[],
  item: Pointer,
  position: { before?: Pointer; after?: Pointer } | undefined,
  field = 'position',
): { key: string; renumbered: Placed[] } {
  const others = [...siblings]
    .filter((s) => !(s.type === item.type && s.id === item.id))
    .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));
  const find = (which: 'before' | 'after', p: Pointer) => {
    if (p.type === item.type && p.id === item.id) {
      throw new InvalidError(`${field}.${which}`, 'cannot be the moved item itself');
    }
    const index = others.findIndex((s) => s.type === p.type && s.id === p.id);
    if (index < 0) throw new InvalidError(`${field}.${which}`, `no such ${p.type} among the item's siblings`);
    return index;
  };
  let insertAt = others.length;
  if (position?.before && position.after) {
    const b = find('before', position.before);
    const a = find('after', position.after);
    if (a + 1 !== b) throw new InvalidError(field, 'before and after must be adjacent siblings');
    insertAt = b;
  } else if (position?.before) {
    insertAt = find('before', position.before);
  } else if (position?.after) {
    insertAt = find('after', position.after) + 1;
  }
  const prev = others[insertAt - 1]?.position ?? null;
  const next = others[insertAt]?.position ?? null;
  const key = prev !== null && next !== null && next <= prev ? null : generateKeyBetween(prev, next);
  if (key !== null && key.length <= KEY_MAX) return { key, renumbered: [] };
  const keys = generateNKeysBetween(null, null, others.length + 1);
  const renumbered = others.map((s, i) => ({ ...s, position: keys[i < insertAt ? i : i + 1]! }));
  return { key: keys[insertAt]!, renumbered };
}

/** Keys for `count` items placed right after `after` and before `before` (either may be null). */
export function keysBetween(after: string | null, before: string | null, count: number): string[] {
  if (count === 0) return [];
  if (after !== null && before !== null && before <= after) before = null;
  return generateNKeysBetween(after, before, count);
}
