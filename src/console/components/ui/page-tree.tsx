import { useState } from 'react';
import type { ReactNode } from 'react';
import type { RevisionPage } from '../../../shared/contract';
import { ChevronIcon, DocIcon, ExternalIcon, EyeOffIcon } from './icons';
import { safeHref } from './markdown';

export interface PagePlace {
  /** Parent page id, `null` at the top level. */
  parent: string | null;
  index: number;
  siblings: RevisionPage[];
}

interface PageTreeProps {
  pages: RevisionPage[];
  /** Accessible name of the navigation, e.g. "Pages of Handbook". */
  label: string;
  activeId?: string;
  /** The link of a document page (a router Link), given the page; it should carry `className`. */
  renderLink: (page: RevisionPage, className: string) => ReactNode;
  /** Actions beside each page (a menu), if any. */
  actions?: (page: RevisionPage, place: PagePlace) => ReactNode;
}

/**
 * The pages of a space or a change request as nested lists: document pages are links, groups are headings of
 * their pages, link pages point outside. Every row and its actions are reachable with Tab.
 */
/** Beside a hidden page's title: it is left out of the published site's navigation. */
export function HiddenPageMark({ page }: { page: RevisionPage }) {
  if (!page.hidden) return null;
  return (
    <span className="page-tree-hidden" title="Hidden in the site’s navigation">
      <EyeOffIcon width={14} height={14} />
      <span className="visually-hidden">(hidden in the site’s navigation)</span>
    </span>
  );
}

/** A link page's href naming a page of the space, `/pages/<id>` with or without a `#section`. */
const INTERNAL = /^\/pages\/([A-Za-z0-9_-]+)(?:#.*)?$/;

export function PageTree({ pages, label, activeId, renderLink, actions }: PageTreeProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <nav className="page-tree" aria-label={label}>
      <ul className="page-tree-list">
        <Level
          pages={pages}
          parent={null}
          activeId={activeId}
          collapsed={collapsed}
          onToggle={toggle}
          renderLink={renderLink}
          actions={actions}
        />
      </ul>
    </nav>
  );
}

interface LevelProps extends Omit<PageTreeProps, 'label'> {
  parent: string | null;
  collapsed: ReadonlySet<string>;
  onToggle: (id: string) => void;
}

function Level({ pages, parent, ...props }: LevelProps) {
  return pages.map((page, index) => (
    <Item key={page.id} page={page} place={{ parent, index, siblings: pages }} {...props} />
  ));
}

function Item({
  page,
  place,
  activeId,
  collapsed,
  onToggle,
  renderLink,
  actions,
}: Omit<LevelProps, 'pages' | 'parent'> & { page: RevisionPage; place: PagePlace }) {
  const children = page.pages ?? [];
  const expanded = !collapsed.has(page.id);
  const groupId = `page-tree-${page.id}`;
  const title = page.title || 'Untitled';
  const icon = (
    <span className="page-tree-icon" aria-hidden="true">
      {page.emoji || (page.type === 'link' ? <ExternalIcon /> : <DocIcon />)}
    </span>
  );
  let row: ReactNode;
  if (page.type === 'group') {
    row = <span className="page-tree-group">{title}</span>;
  } else if (page.type === 'link' && INTERNAL.exec(page.href ?? '')) {
    // A link to a page of the space (an import's SUMMARY entry naming a page's section): that page, here.
    row = renderLink({ ...page, id: INTERNAL.exec(page.href!)![1]!, type: 'document' }, 'page-tree-link');
  } else if (page.type === 'link') {
    const href = safeHref(page.href);
    row = href ? (
      <a className="page-tree-link" href={href} target="_blank" rel="noopener noreferrer nofollow">
        {icon}
        <span className="page-tree-title">{title}</span>
      </a>
    ) : (
      <span className="page-tree-link page-tree-link-disabled">
        {icon}
        <span className="page-tree-title">{title}</span>
      </span>
    );
  } else {
    row = renderLink(page, `page-tree-link${page.id === activeId ? ' active' : ''}`);
  }
  return (
    <li className={`page-tree-item page-tree-item-${page.type}`}>
      <div className="page-tree-row">
        {children.length > 0 && page.type !== 'group' ? (
          <button
            type="button"
            className="tree-toggle"
            aria-expanded={expanded}
            aria-controls={groupId}
            aria-label={`${expanded ? 'Collapse' : 'Expand'} ${title}`}
            onClick={() => onToggle(page.id)}
          >
            <ChevronIcon className={expanded ? 'rotate-90' : undefined} />
          </button>
        ) : (
          <span className="tree-toggle-spacer" aria-hidden="true" />
        )}
        {row}
        {actions && <span className="page-tree-actions">{actions(page, place)}</span>}
      </div>
      {children.length > 0 && (expanded || page.type === 'group') && (
        <ul className="page-tree-list page-tree-nested" id={groupId} aria-label={`Inside ${title}`}>
          <Level
            pages={children}
            parent={page.id}
            activeId={activeId}
            collapsed={collapsed}
            onToggle={onToggle}
            renderLink={renderLink}
            actions={actions}
          />
        </ul>
      )}
    </li>
  );
}
