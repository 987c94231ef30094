import type { Comment, CommentStatus } from '../../../../shared/contract';

type Reactions = Comment['reactions'];

/** The reactions offered: a small fixed palette, each with the name a screen reader says. */
export const REACTION_PALETTE = [
  { emoji: '👍', label: 'Thumbs up' },
  { emoji: '🎉', label: 'Hooray' },
  { emoji: '❤️', label: 'Heart' },
  { emoji: '👀', label: 'Eyes' },
  { emoji: '😄', label: 'Laugh' },
  { emoji: '🚀', label: 'Rocket' },
] as const;

/** How many threads are open and how many resolved: the counts beside the filter. */
export function countByStatus(comments: readonly Comment[]): Record<CommentStatus, number> {
  const counts = { open: 0, resolved: 0 };
  for (const comment of comments) counts[comment.status]++;
  return counts;
}

/** The threads on each page (by page id), in the order given; threads on the whole change request are left out. */
export function threadsByPage(comments: readonly Comment[]): Map<string, Comment[]> {
  const byPage = new Map<string, Comment[]>();
  for (const comment of comments) {
    const pageId = comment.target.page?.id;
    if (pageId === undefined) continue;
    const list = byPage.get(pageId);
    if (list) list.push(comment);
    else byPage.set(pageId, [comment]);
  }
  return byPage;
}

export interface PlacedThreads {
  /** Threads beside the block they anchor to, by block id. */
  byBlock: Map<string, Comment[]>;
  /** Threads on the page itself, and those whose block the diff does not show any more (never hidden). */
  page: Comment[];
}

/**
 * Where each thread of a page sits in the page's diff: beside its block when the diff has that block (a removed
 * block too: the thread is outdated, but its block is still in sight), else with the page's own threads.
 */
export function placeThreads(threads: readonly Comment[], blocks: readonly { id: string }[]): PlacedThreads {
  const ids = new Set(blocks.map((block) => block.id));
  const byBlock = new Map<string, Comment[]>();
  const page: Comment[] = [];
  for (const thread of threads) {
    const node = thread.target.node?.id;
    if (node === undefined || !ids.has(node)) {
      page.push(thread);
      continue;
    }
    const list = byBlock.get(node);
    if (list) list.push(thread);
    else byBlock.set(node, [thread]);
  }
  return { byBlock, page };
}

/** A thread whose block or page is gone from the change request's current content. */
export function isOutdated(comment: Comment): boolean {
  return comment.target.node?.outdated === true || comment.target.page?.outdated === true;
}

/**
 * The start of a block's text without its markdown marks, to name the block in a label ("Comment on “Step one”").
 * Empty when the block has no text (an image, a rule).
 */
export function blockExcerpt(markdown: string, max = 40): string {
  const text = markdown
    .split('\n')
    .filter((line) => !/^\s*(```|~~~)/.test(line))
    .map((line) => line.replace(/^\s*(#{1,6}\s+|>\s?|[-*+]\s+(\[[ xX]\]\s+)?|\d+[.)]\s+|\|)/g, ''))
    .join(' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_~`|]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= max) return text;
  // Cut at the last space when there is one in the second half, so that no word is cut in two.
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Whether `userId` is among those who reacted with this emoji. */
export function reactedBy(reaction: Reactions[number], userId: string): boolean {
  return reaction.users.some(({ user }) => user.id === userId);
}

/** Choosing an emoji adds the user's reaction, or removes it when they had already reacted with it. */
export function reactionChange(
  reactions: Reactions,
  emoji: string,
  userId: string,
): { addedReactions: string[] } | { removedReactions: string[] } {
  const mine = reactions.some((reaction) => reaction.emoji === emoji && reactedBy(reaction, userId));
  return mine ? { removedReactions: [emoji] } : { addedReactions: [emoji] };
}
