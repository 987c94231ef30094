import { useState } from 'react';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { pageDiffSchema } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { Markdown } from '../../../components/ui/markdown';

type PageDiff = z.infer<typeof pageDiffSchema>;
type Block = PageDiff['blocks'][number];

export type DiffView = 'split' | 'inline';

/** Runs of unchanged blocks longer than this fold behind a button; changed blocks keep one neighbour each side. */
const CONTEXT = 1;

type Row = { type: 'block'; block: Block } | { type: 'fold'; blocks: Block[]; key: string };

/** Changed blocks with a little context; long unchanged runs become one foldable row. */
function rows(blocks: Block[]): Row[] {
  const changed = blocks.map((block) => block.kind !== 'unchanged');
  const near = (index: number) => changed.slice(Math.max(0, index - CONTEXT), index + CONTEXT + 1).some(Boolean);
  const result: Row[] = [];
  let fold: Block[] = [];
  const flush = () => {
    if (fold.length === 1) result.push({ type: 'block', block: fold[0]! });
    else if (fold.length > 1) result.push({ type: 'fold', blocks: fold, key: `fold-${fold[0]!.id}` });
    fold = [];
  };
  blocks.forEach((block, index) => {
    if (block.kind === 'unchanged' && !near(index)) fold.push(block);
    else {
      flush();
      result.push({ type: 'block', block });
    }
  });
  flush();
  return result;
}

/** The block diff of one page, side by side (rendered before | after) or inline (words inserted and deleted). */
export function PageDiffView({ diff, view }: { diff: PageDiff; view: DiffView }) {
  const titleChanged = diff.before && diff.after && diff.before.title !== diff.after.title;
  return (
    <div className={`diff diff-${view}`}>
      {titleChanged && (
        <p className="diff-title-change">
          Title: <del>{diff.before?.title}</del> → <ins>{diff.after?.title}</ins>
        </p>
      )}
      {diff.blocks.length === 0 ? (
        <p className="diff-empty">The page has no content{diff.after ? '' : ' any more'}.</p>
      ) : view === 'split' ? (
        <SplitDiff blocks={diff.blocks} />
      ) : (
        <InlineDiff blocks={diff.blocks} />
      )}
    </div>
  );
}

function Fold({ blocks, children }: { blocks: Block[]; children: (blocks: Block[]) => ReactNode }) {
  const [open, setOpen] = useState(false);
  if (open) return children(blocks);
  return (
    <div className="diff-fold">
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)}>
        Show {blocks.length} unchanged blocks
      </Button>
    </div>
  );
}

function SplitDiff({ blocks }: { blocks: Block[] }) {
  const render = (list: Block[]) => list.map((block) => <SplitRow key={block.id} block={block} />);
  return (
    <div className="diff-split" role="table" aria-label="Changes side by side">
      <div className="diff-row diff-head" role="row">
        <div role="columnheader">Before</div>
        <div role="columnheader">After</div>
      </div>
      {rows(blocks).map((row) =>
        row.type === 'fold' ? (
          <Fold key={row.key} blocks={row.blocks}>
            {render}
          </Fold>
        ) : (
          render([row.block])
        ),
      )}
    </div>
  );
}

function Side({ markdown, tone, label }: { markdown?: string; tone: string; label: string }) {
  return (
    <div role="cell" className={`diff-cell diff-${tone}`}>
      {markdown === undefined ? (
        <span className="visually-hidden">{label}</span>
      ) : (
        <>
          {tone !== 'unchanged' && <span className="visually-hidden">{label}: </span>}
          <Markdown headingOffset={2}>{markdown}</Markdown>
        </>
      )}
    </div>
  );
}

function SplitRow({ block }: { block: Block }) {
  switch (block.kind) {
    case 'unchanged':
      return (
        <div className="diff-row" role="row">
          <Side markdown={block.markdown} tone="unchanged" label="Unchanged" />
          <Side markdown={block.markdown} tone="unchanged" label="Unchanged" />
        </div>
      );
    case 'added':
      return (
        <div className="diff-row" role="row">
          <Side tone="none" label="Nothing before" />
          <Side markdown={block.markdown} tone="added" label="Added" />
        </div>
      );
    case 'removed':
      return (
        <div className="diff-row" role="row">
          <Side markdown={block.markdown} tone="removed" label="Removed" />
          <Side tone="none" label="Nothing after" />
        </div>
      );
    case 'modified':
      return (
        <div className="diff-row" role="row">
          <Side markdown={block.before} tone="removed" label="Before" />
          <Side markdown={block.after} tone="added" label="After" />
        </div>
      );
  }
}

function InlineDiff({ blocks }: { blocks: Block[] }) {
  const render = (list: Block[]) => list.map((block) => <InlineBlock key={block.id} block={block} />);
  return (
    <div className="diff-inline" aria-label="Changes inline" role="group">
      {rows(blocks).map((row) =>
        row.type === 'fold' ? (
          <Fold key={row.key} blocks={row.blocks}>
            {render}
          </Fold>
        ) : (
          render([row.block])
        ),
      )}
    </div>
  );
}

function InlineBlock({ block }: { block: Block }) {
  switch (block.kind) {
    case 'unchanged':
      return <pre className="diff-source diff-unchanged">{block.markdown}</pre>;
    case 'added':
      return (
        <pre className="diff-source diff-added">
          <ins>{block.markdown}</ins>
        </pre>
      );
    case 'removed':
      return (
        <pre className="diff-source diff-removed">
          <del>{block.markdown}</del>
        </pre>
      );
    case 'modified':
      return (
        <pre className="diff-source diff-modified">
          {block.words.map((word, index) =>
            word.op === 'insert' ? (
              <ins key={index}>{word.text}</ins>
            ) : word.op === 'delete' ? (
              <del key={index}>{word.text}</del>
            ) : (
              <span key={index}>{word.text}</span>
            ),
          )}
        </pre>
      );
  }
}
