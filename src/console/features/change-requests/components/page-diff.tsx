import { createContext, Fragment, useContext, useState } from 'react';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { pageDiffSchema } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { Markdown } from '../../../components/ui/markdown';
import { MarkdownFilesContext } from '../../../components/ui/markdown-files';
import { diffRows } from '../utils/diff-rows';
import '../change-requests.css';

type PageDiff = z.infer<typeof pageDiffSchema>;
export type DiffBlock = PageDiff['blocks'][number];
type Block = DiffBlock;

export type DiffView = 'split' | 'inline';

/** Files URLs of the two sides (see MarkdownFilesContext): images of the page show in the diff. */
export interface DiffFiles {
  before: string;
  after: string;
}

const BeforeFilesContext = createContext<string | undefined>(undefined);

/** What the review adds to a diff: a button on blocks, threads under them. */
export interface DiffAnnotations {
  /** Blocks that never fold away (those with threads). */
  pinned: ReadonlySet<string>;
  /** The control shown on a block (e.g. "Comment on …"), or nothing. */
  action: (block: Block) => ReactNode;
  /** What sits under a block (its threads, the form of a new one); null when nothing does. */
  below: (block: Block) => ReactNode | null;
}

/**
 * The block diff of one page, rendered: side by side (before | after) or inline (one column, a changed block shown
 * as it was, then as it is). Either way the words a modified block lost are marked deleted and those it gained
 * inserted (markdown-changes.ts).
 */
export function PageDiffView({
  diff,
  view,
  annotations,
  files,
}: {
  diff: PageDiff;
  view: DiffView;
  annotations?: DiffAnnotations;
  files?: DiffFiles;
}) {
  const titleChanged = diff.before && diff.after && diff.before.title !== diff.after.title;
  return (
    <MarkdownFilesContext.Provider value={files?.after}>
      <BeforeFilesContext.Provider value={files?.before}>
        <div className={`diff diff-${view}`}>
          {titleChanged && (
            <p className="diff-title-change">
              Title: <del>{diff.before?.title}</del> → <ins>{diff.after?.title}</ins>
            </p>
          )}
          {diff.blocks.length === 0 ? (
            <p className="diff-empty">The page has no content{diff.after ? '' : ' any more'}.</p>
          ) : view === 'split' ? (
            <SplitDiff blocks={diff.blocks} annotations={annotations} />
          ) : (
            <InlineDiff blocks={diff.blocks} annotations={annotations} />
          )}
        </div>
      </BeforeFilesContext.Provider>
    </MarkdownFilesContext.Provider>
  );
}

/**
 * Unchanged blocks folded behind a button. In the side-by-side table the button is a row of its own, a cell across
 * both columns: a table holds rows only (a button among them broke the table for screen readers).
 */
function Fold({
  blocks,
  inTable = false,
  children,
}: {
  blocks: Block[];
  inTable?: boolean;
  children: (blocks: Block[]) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  if (open) return children(blocks);
  const button = (
    <Button size="sm" variant="ghost" onClick={() => setOpen(true)}>
      Show {blocks.length} unchanged blocks
    </Button>
  );
  if (!inTable) return <div className="diff-fold">{button}</div>;
  return (
    <div className="diff-row diff-fold-row" role="row">
      <div className="diff-fold" role="cell" aria-colspan={2}>
        {button}
      </div>
    </div>
  );
}

function SplitDiff({ blocks, annotations }: { blocks: Block[]; annotations?: DiffAnnotations }) {
  const render = (list: Block[]) =>
    list.map((block) => {
      const below = annotations?.below(block) ?? null;
      return (
        <Fragment key={block.id}>
          <SplitRow block={block} action={annotations?.action(block)} />
          {below !== null && (
            <div className="diff-row diff-annex" role="row">
              <div role="cell" className="diff-annex-cell">
                {below}
              </div>
            </div>
          )}
        </Fragment>
      );
    });
  return (
    <div className="diff-split" role="table" aria-label="Changes side by side">
      <div className="diff-row diff-head" role="row">
        <div role="columnheader">Before</div>
        <div role="columnheader">After</div>
      </div>
      {diffRows(blocks, annotations?.pinned).map((row) =>
        row.type === 'fold' ? (
          <Fold key={row.key} blocks={row.blocks} inTable>
            {render}
          </Fold>
        ) : (
          render([row.block])
        ),
      )}
    </div>
  );
}

/** One side of a block, rendered; a side of a modified block marks its words that `against` does not have. */
function Rendered({
  markdown,
  tone,
  label,
  against,
  role,
}: {
  markdown?: string;
  tone: string;
  label: string;
  against?: string;
  role?: 'cell';
}) {
  const changeTag = against === undefined ? undefined : tone === 'added' ? 'ins' : 'del';
  const beforeFiles = useContext(BeforeFilesContext);
  const afterFiles = useContext(MarkdownFilesContext);
  return (
    <MarkdownFilesContext.Provider value={tone === 'removed' ? beforeFiles : afterFiles}>
      <div role={role} className={`diff-cell diff-${tone}`}>
        {markdown === undefined ? (
          <span className="visually-hidden">{label}</span>
        ) : (
          <>
            {tone !== 'unchanged' && <span className="visually-hidden">{label}: </span>}
            <Markdown headingOffset={2} changeTag={changeTag} changedAgainst={against}>
              {markdown}
            </Markdown>
          </>
        )}
      </div>
    </MarkdownFilesContext.Provider>
  );
}

function Side(props: { markdown?: string; tone: string; label: string; against?: string; action?: ReactNode }) {
  const { action, ...rest } = props;
  if (!action) return <Rendered role="cell" {...rest} />;
  return (
    <div role="cell" className="diff-cell-with-action">
      <span className="diff-block-action">{action}</span>
      <Rendered {...rest} />
    </div>
  );
}

/** One block, before | after; `action` sits on the after side, the content comments anchor to. */
function SplitRow({ block, action }: { block: Block; action?: ReactNode }) {
  switch (block.kind) {
    case 'unchanged':
      return (
        <div className="diff-row" role="row">
          <Side markdown={block.markdown} tone="unchanged" label="Unchanged" />
          <Side markdown={block.markdown} tone="unchanged" label="Unchanged" action={action} />
        </div>
      );
    case 'added':
      return (
        <div className="diff-row" role="row">
          <Side tone="none" label="Nothing before" />
          <Side markdown={block.markdown} tone="added" label="Added" action={action} />
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
          <Side markdown={block.before} against={block.after} tone="removed" label="Before" />
          <Side markdown={block.after} against={block.before} tone="added" label="After" action={action} />
        </div>
      );
  }
}

function InlineDiff({ blocks, annotations }: { blocks: Block[]; annotations?: DiffAnnotations }) {
  const render = (list: Block[]) =>
    list.map((block) => {
      const action = annotations?.action(block);
      const below = annotations?.below(block) ?? null;
      return (
        <Fragment key={block.id}>
          <div className={`diff-block${action ? ' diff-block-with-action' : ''}`}>
            <InlineBlock block={block} />
            {action && <span className="diff-block-action">{action}</span>}
          </div>
          {below !== null && <div className="diff-annex">{below}</div>}
        </Fragment>
      );
    });
  return (
    <div className="diff-inline" aria-label="Changes inline" role="group">
      {diffRows(blocks, annotations?.pinned).map((row) =>
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
      return <Rendered markdown={block.markdown} tone="unchanged" label="Unchanged" />;
    case 'added':
      return <Rendered markdown={block.markdown} tone="added" label="Added" />;
    case 'removed':
      return <Rendered markdown={block.markdown} tone="removed" label="Removed" />;
    case 'modified':
      return (
        <div className="diff-modified-pair">
          <Rendered markdown={block.before} against={block.after} tone="removed" label="Before" />
          <Rendered markdown={block.after} against={block.before} tone="added" label="After" />
        </div>
      );
  }
}
