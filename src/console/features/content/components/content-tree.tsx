import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ChevronIcon, DocIcon, FolderIcon } from '../../../components/ui/icons';
import { SPACE_UNTITLED, VISIBILITY_LABELS } from '../utils/labels';
import { plural } from '../utils/tree';
import type { CollectionNode, SpaceNode, TreeNode } from '../utils/tree';
import { CollectionActions } from './collection-actions';
import { SpaceActions } from './space-actions';
import '../content.css';

/** Collections and spaces as nested lists: every row is a link plus a menu of actions, all reachable by keyboard. */
export function ContentTree({ nodes, label }: { nodes: TreeNode[]; label: string }) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <ul className="tree" aria-label={label}>
      <Nodes nodes={nodes} collapsed={collapsed} onToggle={toggle} />
    </ul>
  );
}

interface LevelProps {
  nodes: TreeNode[];
  collapsed: ReadonlySet<string>;
  onToggle: (id: string) => void;
}

function Nodes({ nodes, ...props }: LevelProps) {
  return nodes.map((node) =>
    node.type === 'collection' ? (
      <CollectionItem key={node.collection.id} node={node} {...props} />
    ) : (
      <SpaceItem key={node.space.id} node={node} />
    ),
  );
}

function CollectionItem({ node, collapsed, onToggle }: Omit<LevelProps, 'nodes'> & { node: CollectionNode }) {
  const { collection, children } = node;
  const expanded = !collapsed.has(collection.id);
  const childGroupId = `tree-children-${collection.id}`;
  return (
    <li className="tree-item">
      <div className="tree-row">
        {children.length > 0 ? (
          <button
            type="button"
            className="tree-toggle"
            aria-expanded={expanded}
            aria-controls={childGroupId}
            aria-label={`${expanded ? 'Collapse' : 'Expand'} ${collection.title}`}
            onClick={() => onToggle(collection.id)}
          >
            <ChevronIcon className={expanded ? 'rotate-90' : undefined} />
          </button>
        ) : (
          <span className="tree-toggle-spacer" aria-hidden="true" />
        )}
        <Link
          to="/o/$organizationId/collections/$collectionId"
          params={{ organizationId: collection.organization, collectionId: collection.id }}
          className="tree-link"
        >
          <span className="tree-icon tree-icon-collection">
            <FolderIcon />
          </span>
          <span className="tree-title">{collection.title}</span>
        </Link>
        <span className="tree-meta">{plural(children.length, 'item')}</span>
        <span className="tree-actions">
          <CollectionActions collection={collection} />
        </span>
      </div>
      {children.length > 0 && expanded && (
        <ul className="tree-group" id={childGroupId} aria-label={`Inside ${collection.title}`}>
          <Nodes nodes={children} collapsed={collapsed} onToggle={onToggle} />
        </ul>
      )}
    </li>
  );
}

function SpaceItem({ node }: { node: SpaceNode }) {
  const { space } = node;
  return (
    <li className="tree-item">
      <div className="tree-row">
        <span className="tree-toggle-spacer" aria-hidden="true" />
        <Link
          to="/o/$organizationId/spaces/$spaceId"
          params={{ organizationId: space.organization, spaceId: space.id }}
          className="tree-link"
        >
          <span className="tree-icon" aria-hidden="true">
            {space.emoji || <DocIcon />}
          </span>
          <span className="tree-title">{space.title || SPACE_UNTITLED}</span>
        </Link>
        <span className={`badge badge-${space.visibility}`}>{VISIBILITY_LABELS[space.visibility].short}</span>
        <span className="tree-actions">
          <SpaceActions space={space} />
        </span>
      </div>
    </li>
  );
}
