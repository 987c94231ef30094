/** Runs of unchanged blocks longer than this fold behind a button; changed blocks keep one neighbour each side. */
const CONTEXT = 1;

export type DiffRow<B> = { type: 'block'; block: B } | { type: 'fold'; blocks: B[]; key: string };

/**
 * Changed blocks with a little context; long unchanged runs become one foldable row. Pinned blocks (those with
 * comment threads) never fold away, so that a thread is always beside its block.
 */
export function diffRows<B extends { id: string; kind: string }>(
  blocks: readonly B[],
  pinned: ReadonlySet<string> = new Set(),
): DiffRow<B>[] {
  const changed = blocks.map((block) => block.kind !== 'unchanged');
  const near = (index: number) => changed.slice(Math.max(0, index - CONTEXT), index + CONTEXT + 1).some(Boolean);
  const result: DiffRow<B>[] = [];
  let fold: B[] = [];
  const flush = () => {
    if (fold.length === 1) result.push({ type: 'block', block: fold[0]! });
    else if (fold.length > 1) result.push({ type: 'fold', blocks: fold, key: `fold-${fold[0]!.id}` });
    fold = [];
  };
  blocks.forEach((block, index) => {
    if (block.kind === 'unchanged' && !near(index) && !pinned.has(block.id)) fold.push(block);
    else {
      flush();
      result.push({ type: 'block', block });
    }
  });
  flush();
  return result;
}
