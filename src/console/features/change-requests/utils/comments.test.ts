import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../../shared/contract';
import { blockExcerpt, countByStatus, isOutdated, placeThreads, reactionChange, threadsByPage } from './comments';

const user = (id: string) => ({
  object: 'user' as const,
  id,
  displayName: id,
  email: `${id}@example.com`,
  urls: { location: `/users/${id}` },
});

function comment(id: string, target: Partial<Comment['target']> = {}, status: Comment['status'] = 'open'): Comment {
  return {
    object: 'comment',
    id,
    postedBy: user('ann'),
    postedAt: '2025-01-01T00:00:00.000Z',
    reactions: [],
    replies: 0,
    repliers: [],
    body: { markdown: id },
    target: { space: 's', revision: 'r', changeRequest: 'cr', ...target },
    status,
    permissions: { view: true, edit: true, reply: true, delete: true, resolve: true },
    urls: { location: `/comments/${id}` },
  };
}

const page = (id: string, outdated = false) => ({ id, title: id, path: id, outdated });
const node = (id: string, outdated = false) => ({ id, preview: `Text of ${id}`, outdated });

describe('countByStatus', () => {
  it('counts open and resolved threads', () => {
    expect(countByStatus([])).toEqual({ open: 0, resolved: 0 });
    expect(countByStatus([comment('a'), comment('b', {}, 'resolved'), comment('c'), comment('d', {}, 'open')])).toEqual(
      { open: 3, resolved: 1 },
    );
  });
});

describe('threadsByPage', () => {
  it('groups threads by page in their order and leaves out those on the whole change request', () => {
    const a = comment('a', { page: page('p1') });
    const b = comment('b', { page: page('p2'), node: node('n1') });
    const c = comment('c');
    const d = comment('d', { page: page('p1'), node: node('n2') });
    const byPage = threadsByPage([a, b, c, d]);
    expect([...byPage.keys()]).toEqual(['p1', 'p2']);
    expect(byPage.get('p1')).toEqual([a, d]);
    expect(byPage.get('p2')).toEqual([b]);
  });
});

describe('placeThreads', () => {
  const blocks = [{ id: 'n1' }, { id: 'n2' }, { id: 'gone-in-cr' }];

  it('puts a thread beside the block it anchors to, several per block in their order', () => {
    const a = comment('a', { page: page('p'), node: node('n1') });
    const b = comment('b', { page: page('p'), node: node('n2') });
    const c = comment('c', { page: page('p'), node: node('n1') });
    const placed = placeThreads([a, b, c], blocks);
    expect(placed.byBlock.get('n1')).toEqual([a, c]);
    expect(placed.byBlock.get('n2')).toEqual([b]);
    expect(placed.page).toEqual([]);
  });

  it('keeps page comments, and anchors the diff does not show, with the page', () => {
    const onPage = comment('a', { page: page('p') });
    const lost = comment('b', { page: page('p', true), node: node('elsewhere', true) });
    const placed = placeThreads([onPage, lost], blocks);
    expect(placed.page).toEqual([onPage, lost]);
    expect(placed.byBlock.size).toBe(0);
  });

  it('keeps a thread beside a block the change request removed (it is outdated, the block is still shown)', () => {
    const removed = comment('a', { page: page('p', true), node: node('gone-in-cr', true) });
    expect(placeThreads([removed], blocks).byBlock.get('gone-in-cr')).toEqual([removed]);
  });
});

describe('isOutdated', () => {
  it('is true when the block or the page is gone', () => {
    expect(isOutdated(comment('a'))).toBe(false);
    expect(isOutdated(comment('a', { page: page('p') }))).toBe(false);
    expect(isOutdated(comment('a', { page: page('p'), node: node('n') }))).toBe(false);
    expect(isOutdated(comment('a', { page: page('p', true), node: node('n', true) }))).toBe(true);
    expect(isOutdated(comment('a', { page: page('p', true) }))).toBe(true);
  });
});

describe('blockExcerpt', () => {
  it('names a block by its text without markdown marks', () => {
    expect(blockExcerpt('## Install **now**')).toBe('Install now');
    expect(blockExcerpt('- [x] done\n- see [the guide](https://example.com)')).toBe('done see the guide');
    expect(blockExcerpt('> quoted `code`')).toBe('quoted code');
    expect(blockExcerpt('1. first\n2. second')).toBe('first second');
    expect(blockExcerpt('```ts\nconst a = 1;\n```')).toBe('const a = 1;');
    expect(blockExcerpt('![A diagram](d.png)')).toBe('A diagram');
  });

  it('cuts long text with an ellipsis, and is empty for a block without text', () => {
    expect(blockExcerpt('word '.repeat(20), 12)).toBe('word word…');
    expect(blockExcerpt('Supercalifragilistic', 8)).toBe('Superca…');
    expect(blockExcerpt('***')).toBe('');
  });
});

describe('reactionChange', () => {
  const reactions: Comment['reactions'] = [
    { emoji: '👍', count: 2, users: [user('ann'), user('bob')].map((u) => ({ user: u, reactedAt: 'x' })) },
    { emoji: '🎉', count: 1, users: [{ user: user('bob'), reactedAt: 'x' }] },
  ];

  it('removes a reaction the user made, and adds one they did not', () => {
    expect(reactionChange(reactions, '👍', 'ann')).toEqual({ removedReactions: ['👍'] });
    expect(reactionChange(reactions, '🎉', 'ann')).toEqual({ addedReactions: ['🎉'] });
    expect(reactionChange(reactions, '🚀', 'ann')).toEqual({ addedReactions: ['🚀'] });
  });
});
