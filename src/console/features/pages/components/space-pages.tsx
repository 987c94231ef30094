import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { RevisionPage } from '../../../../shared/contract';
import { DocIcon } from '../../../components/ui/icons';
import { MarkdownFilesContext, revisionFilesUrl } from '../../../components/ui/markdown-files';
import { Markdown } from '../../../components/ui/markdown';
import { withoutTitle } from '../../../../shared/page-title';
import { HiddenPageMark, PageTree } from '../../../components/ui/page-tree';
import { firstDocument, pagePath } from '../../../lib/page-tree';
import { EmptyState } from '../../../components/ui/states';
import { revisionPageQueryOptions } from '../api/get-revision-page';
import { revisionPagesQueryOptions } from '../api/get-revision-pages';
import { spacePageQueryOptions } from '../api/get-space-page';
import { spacePagesQueryOptions } from '../../../lib/space-pages';
import '../pages.css';

interface Props {
  organizationId: string;
  spaceId: string;
  spaceTitle: string;
  /** The page to show; without it, the first page of the space. */
  pageId?: string;
  /** The revision the pages are read from: files they name (`/files/<id>`) load from it. */
  filesRevision?: string;
  /** Shown when the space has no pages (e.g. "start a change request"). */
  emptyAction?: ReactNode;
  /** Actions of the page shown (e.g. "Edit"). */
  pageActions?: (page: RevisionPage) => ReactNode;
  /** Shown below the page (e.g. its comments). */
  pageFooter?: (page: RevisionPage) => ReactNode;
  /** Wraps the sidebar's page tree (e.g. in a search box whose results take its place). */
  sidebar?: (tree: ReactNode) => ReactNode;
}

/** The space as readers see it: its page tree beside the page, rendered. */
export function SpacePages(props: Props) {
  const pages = useSuspenseQuery(spacePagesQueryOptions(props.spaceId)).data;
  return <ContentView {...props} pages={pages} />;
}

/** A past revision of the space, read the same way (nothing in it can be edited). */
export function RevisionPages(
  props: Omit<Props, 'emptyAction' | 'pageActions' | 'pageFooter' | 'sidebar'> & { revisionId: string },
) {
  const pages = useSuspenseQuery(revisionPagesQueryOptions(props.spaceId, props.revisionId)).data;
  return <ContentView {...props} pages={pages} />;
}

interface Place {
  organizationId: string;
  spaceId: string;
  revisionId?: string;
  /** The revision files of the pages load from. */
  filesFrom?: string;
}

function ContentView({
  organizationId,
  spaceId,
  spaceTitle,
  pageId,
  revisionId,
  emptyAction,
  pageActions,
  pageFooter,
  sidebar = (tree) => tree,
  pages,
  filesRevision,
}: Props & { revisionId?: string; pages: RevisionPage[] }) {
  const filesFrom = revisionId ?? filesRevision;
  const shown = pageId ?? firstDocument(pages)?.id;
  const at: Place = { organizationId, spaceId, revisionId, filesFrom };
  const tree =
    pages.length > 0 ? (
      <PageTree
        pages={pages}
        label={`Pages of ${spaceTitle}`}
        activeId={shown}
        renderLink={(page, className) => (
          <PageLink at={at} pageId={page.id} className={className} current={page.id === shown}>
            <span className="page-tree-icon" aria-hidden="true">
              {page.emoji || <DocIcon />}
            </span>
            <span className="page-tree-title">{page.title || 'Untitled'}</span>
            <HiddenPageMark page={page} />
          </PageLink>
        )}
      />
    ) : (
      <p className="content-sidebar-empty">No pages yet.</p>
    );
  return (
    <div className="content-layout">
      <aside className="content-sidebar">{sidebar(tree)}</aside>
      <div className="content-main">
        {shown ? (
          revisionId ? (
            <RevisionPageArticle
              key={shown}
              at={at}
              revisionId={revisionId}
              pageId={shown}
              path={pagePath(pages, shown)}
            />
          ) : (
            <SpacePageArticle
              key={shown}
              at={at}
              pageId={shown}
              path={pagePath(pages, shown)}
              actions={pageActions}
              footer={pageFooter}
            />
          )
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

/** A link to a page of the space, or of the past revision being read. */
function PageLink({
  at: { organizationId, spaceId, revisionId },
  pageId,
  className,
  current,
  children,
}: {
  at: Place;
  pageId: string;
  className?: string;
  current?: boolean;
  children: ReactNode;
}) {
  const common = { className, 'aria-current': current ? ('page' as const) : undefined, children };
  return revisionId ? (
    <Link
      to="/o/$organizationId/spaces/$spaceId/revisions/$revisionId/pages/$pageId"
      params={{ organizationId, spaceId, revisionId, pageId }}
      {...common}
    />
  ) : (
    <Link
      to="/o/$organizationId/spaces/$spaceId/pages/$pageId"
      params={{ organizationId, spaceId, pageId }}
      {...common}
    />
  );
}

interface ArticleProps {
  at: Place;
  pageId: string;
  path: RevisionPage[];
  actions?: (page: RevisionPage) => ReactNode;
  footer?: (page: RevisionPage) => ReactNode;
}

function SpacePageArticle({ at, pageId, ...props }: ArticleProps) {
  const page = useSuspenseQuery(spacePageQueryOptions(at.spaceId, pageId)).data;
  return <PageArticle at={at} page={page} {...props} />;
}

function RevisionPageArticle({ at, revisionId, pageId, ...props }: ArticleProps & { revisionId: string }) {
  const page = useSuspenseQuery(revisionPageQueryOptions(at.spaceId, revisionId, pageId)).data;
  return <PageArticle at={at} page={page} {...props} />;
}

function PageArticle({ at, page, path, actions, footer }: Omit<ArticleProps, 'pageId'> & { page: RevisionPage }) {
  const ancestors = path.slice(0, -1);
  // A body that opens with its page's title as a heading shows the title once (the article's own heading).
  const markdown = withoutTitle(page.markdown ?? '', page.title);
  return (
    <article className="page-article" aria-labelledby="page-article-title">
      {ancestors.length > 0 && (
        <p className="page-article-path">
          {ancestors.map((ancestor) => (
            <span key={ancestor.id}>
              {ancestor.type === 'document' ? (
                <PageLink at={at} pageId={ancestor.id}>
                  {ancestor.title}
                </PageLink>
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
        <MarkdownFilesContext.Provider value={at.filesFrom && revisionFilesUrl(at.spaceId, at.filesFrom)}>
          <Markdown headingOffset={2} organizationId={at.organizationId}>
            {markdown}
          </Markdown>
        </MarkdownFilesContext.Provider>
      ) : (
        <p className="page-article-empty">This page is empty.</p>
      )}
      {footer?.(page)}
    </article>
  );
}
