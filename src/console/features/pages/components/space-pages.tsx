import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { RevisionPage } from '../../../../shared/contract';
import { buttonClass } from '../../../components/ui/button';
import { DocIcon } from '../../../components/ui/icons';
import { Markdown } from '../../../components/ui/markdown';
import { firstDocument, pagePath, PageTree } from '../../../components/ui/page-tree';
import { EmptyState } from '../../../components/ui/states';
import { useSpacePage } from '../api/get-space-page';
import { useSpacePages } from '../api/get-space-pages';

interface Props {
  organizationId: string;
  spaceId: string;
  spaceTitle: string;
  /** The page to show; without it, the first page of the space. */
  pageId?: string;
  /** Shown when the space has no pages (e.g. "start a change request"). */
  emptyAction?: ReactNode;
  /** Actions of the page shown (e.g. "Edit"). */
  pageActions?: (page: RevisionPage) => ReactNode;
}

/** The space as readers see it: its page tree beside the page, rendered. */
export function SpacePages({ organizationId, spaceId, spaceTitle, pageId, emptyAction, pageActions }: Props) {
  const pages = useSpacePages(spaceId);
  const shown = pageId ?? firstDocument(pages)?.id;
  return (
    <div className="content-layout">
      <aside className="content-sidebar">
        {pages.length > 0 ? (
          <PageTree
            pages={pages}
            label={`Pages of ${spaceTitle}`}
            activeId={shown}
            renderLink={(page, className) => (
              <Link
                to="/o/$organizationId/spaces/$spaceId/pages/$pageId"
                params={{ organizationId, spaceId, pageId: page.id }}
                className={className}
                aria-current={page.id === shown ? 'page' : undefined}
              >
                <span className="page-tree-icon" aria-hidden="true">
                  {page.emoji || <DocIcon />}
                </span>
                <span className="page-tree-title">{page.title || 'Untitled'}</span>
              </Link>
            )}
          />
        ) : (
          <p className="content-sidebar-empty">No pages yet.</p>
        )}
      </aside>
      <div className="content-main">
        {shown ? (
          <PageArticle
            key={shown}
            organizationId={organizationId}
            spaceId={spaceId}
            pageId={shown}
            path={pagePath(pages, shown)}
            actions={pageActions}
          />
        ) : (
          <EmptyState
            icon={<DocIcon width={28} height={28} />}
            title="This space has no pages yet"
            action={emptyAction}
          >
            Pages are written in change requests: start one, add pages, then merge it into the space.
          </EmptyState>
        )}
      </div>
    </div>
  );
}

function PageArticle({
  organizationId,
  spaceId,
  pageId,
  path,
  actions,
}: {
  organizationId: string;
  spaceId: string;
  pageId: string;
  path: RevisionPage[];
  actions?: (page: RevisionPage) => ReactNode;
}) {
  const page = useSpacePage(spaceId, pageId);
  const ancestors = path.slice(0, -1);
  const markdown = page.markdown ?? '';
  return (
    <article className="page-article" aria-labelledby="page-article-title">
      {ancestors.length > 0 && (
        <p className="page-article-path">
          {ancestors.map((ancestor) => (
            <span key={ancestor.id}>
              {ancestor.type === 'document' ? (
                <Link
                  to="/o/$organizationId/spaces/$spaceId/pages/$pageId"
                  params={{ organizationId, spaceId, pageId: ancestor.id }}
                >
                  {ancestor.title}
                </Link>
              ) : (
                ancestor.title
              )}
            </span>
          ))}
        </p>
      )}
      <header className="page-article-header">
        <h2 id="page-article-title" className="page-article-title">
          {page.emoji && <span aria-hidden="true">{page.emoji} </span>}
          {page.title || 'Untitled'}
        </h2>
        {actions && <div className="page-actions">{actions(page)}</div>}
      </header>
      {page.description && <p className="page-article-description">{page.description}</p>}
      {markdown.trim() ? (
        <Markdown headingOffset={2}>{markdown}</Markdown>
      ) : (
        <p className="page-article-empty">This page is empty.</p>
      )}
    </article>
  );
}

/** When the page of the URL is not in the space (any more). */
export function PageNotFound({ organizationId, spaceId }: { organizationId: string; spaceId: string }) {
  return (
    <EmptyState
      title="Page not found"
      action={
        <Link to="/o/$organizationId/spaces/$spaceId" params={{ organizationId, spaceId }} className={buttonClass()}>
          Go to the first page
        </Link>
      }
    >
      It may have been deleted or moved to another space.
    </EmptyState>
  );
}
