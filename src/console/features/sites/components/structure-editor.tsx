import { createContext, useContext, useEffect, useId, useRef, useState } from 'react';
import type { DragEvent, KeyboardEvent, ReactNode } from 'react';
import type { SiteStructure, Space } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { DocIcon, FolderIcon, GripIcon, LayersIcon, PlusIcon } from '../../../components/ui/icons';
import { EmptyState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSite } from '../api/get-site';
import { useSiteStructure } from '../api/get-site-structure';
import { useSortSiteStructure } from '../api/sort-site-structure';
import { AddSectionDialog, AddSiteSpaceDialog, NewGroupDialog } from '../forms/structure-dialogs';
import { plural, SPACE_UNTITLED } from '../utils/labels';
import type { SiteRef } from '../utils/paths';
import { dropIndex, keyOf, pointerOf, positionAt, structureNodes, type StructureNode } from '../utils/structure';
import { StructureActions } from './structure-actions';
import '../sites.css';

interface Editor {
  site: SiteRef;
  structure: SiteStructure;
  spaces: Space[];
  manage: boolean;
  /** Id of the text that says how to reorder with the keyboard. */
  hintId: string;
  /** Moves `node` to index `to` among `siblings` (counted without it). */
  move: (node: StructureNode, siblings: StructureNode[], to: number) => void;
  dragging: { key: string; parent: string } | null;
  setDragging: (value: { key: string; parent: string } | null) => void;
  dropTarget: { key: string; half: 'before' | 'after' } | null;
  setDropTarget: (value: { key: string; half: 'before' | 'after' } | null) => void;
}

const EditorContext = createContext<Editor | null>(null);

function useEditor(): Editor {
  const editor = useContext(EditorContext);
  if (!editor) throw new Error('useEditor outside the structure editor');
  return editor;
}

export function titleOf(node: StructureNode): string {
  if (node.kind === 'site-section-group') return node.group.title;
  if (node.kind === 'site-section') return node.section.title;
  return node.siteSpace.space.title || node.siteSpace.title || SPACE_UNTITLED;
}

const KIND_NAMES = { 'site-section-group': 'group', 'site-section': 'section', 'site-space': 'space' } as const;

/**
 * Sections, section groups and site spaces as a tree. Rows reorder among their siblings by dragging, or from the
 * keyboard (the arrow keys on a row's handle, or "Move up"/"Move down" in its menu).
 */
export function StructureEditor({ site: ref, spaces }: { site: SiteRef; spaces: Space[] }) {
  const site = useSite(ref);
  const structure = useSiteStructure(ref);
  const sort = useSortSiteStructure(ref);
  const toast = useToast();
  const hintId = useId();
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<Editor['dragging']>(null);
  const [dropTarget, setDropTarget] = useState<Editor['dropTarget']>(null);
  const refocus = useRef<string | null>(null);
  const tree = useRef<HTMLUListElement>(null);
  const manage = site.permissions.admin;
  const nodes = structureNodes(structure);

  // A moved row may lose focus as the list reorders: give it back to the row's handle.
  useEffect(() => {
    const key = refocus.current;
    if (!key) return;
    const handle = tree.current?.querySelector<HTMLElement>(`[data-handle="${CSS.escape(key)}"]`);
    if (handle && document.activeElement !== handle) handle.focus();
    refocus.current = null;
  }, [structure]);

  const move: Editor['move'] = (node, siblings, to) => {
    const item = pointerOf(node);
    const from = siblings.findIndex((s) => keyOf(pointerOf(s)) === keyOf(item));
    if (from < 0 || to === from || to < 0 || to >= siblings.length) return;
    const title = titleOf(node);
    refocus.current = document.activeElement?.closest('.site-tree-row') ? keyOf(item) : null;
    setAnnouncement(`“${title}” moved to position ${to + 1} of ${siblings.length}.`);
    sort.mutate(
      { item, position: positionAt(siblings.map(pointerOf), item, to) },
      {
        onError: (error) => {
          setAnnouncement(`“${title}” could not be moved.`);
          toast.show(errorMessage(error), 'error');
        },
      },
    );
  };

  const editor: Editor = {
    site: ref,
    structure,
    spaces,
    manage,
    hintId,
    move,
    dragging,
    setDragging,
    dropTarget,
    setDropTarget,
  };

  return (
    <EditorContext.Provider value={editor}>
      <section className="section" aria-labelledby="structure-title">
        <div className="section-header">
          <h2 id="structure-title" className="section-title">
            Structure
          </h2>
          {manage && <Toolbar />}
        </div>
        {nodes.length === 0 ? (
          <EmptyState icon={<LayersIcon width={28} height={28} />} title="This site shows nothing yet">
            {manage
              ? 'Add a space to publish it, or a section to start a site with tabs.'
              : 'Nobody has added spaces to it yet.'}
          </EmptyState>
        ) : (
          <>
            {manage && (
              <p id={hintId} className="section-text">
                Drag a row by its handle to reorder it among its neighbours, or focus the handle and press the up or
                down arrow key; “Move up” and “Move down” are in each row’s menu too.
              </p>
            )}
            <div className="panel">
              <ul className="site-tree" aria-label="Site structure" ref={tree}>
                <Siblings nodes={nodes} parent="" />
              </ul>
            </div>
          </>
        )}
        <p className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </p>
      </section>
    </EditorContext.Provider>
  );
}

function Toolbar() {
  const { site, structure, spaces } = useEditor();
  const [open, setOpen] = useState<'section' | 'site-space' | 'group' | null>(null);
  const sectionButton = useRef<HTMLButtonElement>(null);
  const spaceButton = useRef<HTMLButtonElement>(null);
  const groupButton = useRef<HTMLButtonElement>(null);
  const close = (value: boolean) => !value && setOpen(null);
  const hasSections = structure.type === 'sections' && structure.structure.length > 0;
  return (
    <div className="toolbar">
      {hasSections && (
        <Button ref={groupButton} onClick={() => setOpen('group')}>
          <FolderIcon /> New group
        </Button>
      )}
      <Button ref={spaceButton} onClick={() => setOpen('site-space')}>
        <PlusIcon /> Add space
      </Button>
      <Button ref={sectionButton} variant="primary" onClick={() => setOpen('section')}>
        <PlusIcon /> Add section
      </Button>
      <AddSectionDialog
        site={site}
        spaces={spaces}
        structure={structure}
        open={open === 'section'}
        onOpenChange={close}
        returnFocusRef={sectionButton}
      />
      <AddSiteSpaceDialog
        site={site}
        spaces={spaces}
        structure={structure}
        open={open === 'site-space'}
        onOpenChange={close}
        returnFocusRef={spaceButton}
      />
      <NewGroupDialog
        site={site}
        structure={structure}
        open={open === 'group'}
        onOpenChange={close}
        returnFocusRef={groupButton}
      />
    </div>
  );
}

function Siblings({ nodes, parent }: { nodes: StructureNode[]; parent: string }) {
  return nodes.map((node, index) => (
    <Row key={keyOf(pointerOf(node))} node={node} siblings={nodes} index={index} parent={parent} />
  ));
}

function childrenOf(node: StructureNode): StructureNode[] {
  if (node.kind === 'site-section-group') return node.sections;
  if (node.kind === 'site-section') return node.siteSpaces;
  return [];
}

function Row({
  node,
  siblings,
  index,
  parent,
}: {
  node: StructureNode;
  siblings: StructureNode[];
  index: number;
  parent: string;
}) {
  const editor = useEditor();
  const { manage, dragging, dropTarget, setDragging, setDropTarget, move } = editor;
  const key = keyOf(pointerOf(node));
  const title = titleOf(node);
  const kind = KIND_NAMES[node.kind];
  const children = childrenOf(node);
  const canDrop = !!dragging && dragging.parent === parent && dragging.key !== key;
  const drop = dropTarget?.key === key ? dropTarget.half : undefined;

  const half = (event: DragEvent<HTMLElement>): 'before' | 'after' => {
    const rect = event.currentTarget.getBoundingClientRect();
    return event.clientY < rect.top + rect.height / 2 ? 'before' : 'after';
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    move(node, siblings, index + (event.key === 'ArrowUp' ? -1 : 1));
  };

  const className = [
    'site-tree-row',
    dragging?.key === key ? 'dragging' : '',
    drop ? `drop-${drop}` : '',
    canDrop ? 'drop-allowed' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <li className={`site-tree-item site-tree-item-${kind}`}>
      <div
        className={className}
        data-row={key}
        draggable={manage}
        onDragStart={(event) => {
          if (!manage) return;
          event.dataTransfer.effectAllowed = 'move';
          event.dataTransfer.setData('text/plain', title);
          setDragging({ key, parent });
        }}
        onDragEnd={() => {
          setDragging(null);
          setDropTarget(null);
        }}
        onDragOver={(event) => {
          if (!canDrop) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'move';
          const where = half(event);
          if (drop !== where) setDropTarget({ key, half: where });
        }}
        onDragLeave={(event) => {
          if (drop && !event.currentTarget.contains(event.relatedTarget as Node | null)) setDropTarget(null);
        }}
        onDrop={(event) => {
          if (!canDrop || !dragging) return;
          event.preventDefault();
          const from = siblings.findIndex((s) => keyOf(pointerOf(s)) === dragging.key);
          const moved = siblings[from];
          setDragging(null);
          setDropTarget(null);
          if (moved) move(moved, siblings, dropIndex(from, index, half(event)));
        }}
      >
        {manage && (
          <button
            type="button"
            className="drag-handle"
            data-handle={key}
            aria-label={`Reorder ${kind} ${title}, position ${index + 1} of ${siblings.length}`}
            aria-describedby={editor.hintId}
            onKeyDown={onKeyDown}
          >
            <GripIcon />
          </button>
        )}
        <RowBody node={node} />
        <span className="tree-actions">
          <StructureActions
            site={editor.site}
            structure={editor.structure}
            spaces={editor.spaces}
            node={node}
            manage={manage}
            onMoveUp={index > 0 ? () => move(node, siblings, index - 1) : undefined}
            onMoveDown={index < siblings.length - 1 ? () => move(node, siblings, index + 1) : undefined}
          />
        </span>
      </div>
      {children.length > 0 && (
        <ul className="site-tree-group" aria-label={`Inside ${kind} ${title}`}>
          <Siblings nodes={children} parent={key} />
        </ul>
      )}
    </li>
  );
}

function RowBody({ node }: { node: StructureNode }) {
  const title = titleOf(node);
  let icon: ReactNode;
  let meta: ReactNode;
  let badges: ReactNode = null;
  if (node.kind === 'site-section-group') {
    icon = node.group.icon || <FolderIcon />;
    meta = `Group · ${plural(node.sections.length, 'section')}`;
  } else if (node.kind === 'site-section') {
    const { section } = node;
    icon = section.icon || <LayersIcon />;
    meta = `/${section.path} · ${plural(section.siteSpaces.length, 'space')}`;
    badges = <Badges isDefault={section.default} condition={section.condition} />;
  } else {
    const { siteSpace } = node;
    icon = siteSpace.space.emoji || <DocIcon />;
    meta = `/${siteSpace.path}`;
    badges = (
      <>
        <Badges isDefault={siteSpace.default} condition={siteSpace.condition} />
        {siteSpace.space.deletedAt && (
          <span className="badge badge-danger" title="Readers do not see it until the space is restored">
            In the trash
          </span>
        )}
      </>
    );
  }
  // The title, then its path and badges: on one line when they fit, else the details go under the title.
  return (
    <span className="site-tree-body">
      <span className="tree-icon" aria-hidden="true">
        {icon}
      </span>
      <span className="site-tree-text">
        <span className="site-tree-title">{title}</span>
        <span className="site-tree-details">
          <span className="tree-meta">{meta}</span>
          {badges}
        </span>
      </span>
    </span>
  );
}

function Badges({ isDefault, condition }: { isDefault: boolean; condition?: string }) {
  return (
    <>
      {isDefault && <span className="badge badge-default">Default</span>}
      {condition && (
        <span className="badge badge-condition" title={condition}>
          Condition<span className="visually-hidden">: {condition}</span>
        </span>
      )}
    </>
  );
}
