import { Link, useNavigate } from '@tanstack/react-router';
import { Suspense, useRef, useState } from 'react';
import type { ChangeRequest, RevisionPage } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  useMenuDialogs,
} from '../../../components/ui/dropdown-menu';
import { DocIcon, MoreIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { HiddenPageMark, PageTree } from '../../../components/ui/page-tree';
import type { PagePlace } from '../../../components/ui/page-tree';
import { EmptyState, Loading } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useEditChangeRequestContent } from '../api/edit-change-request-content';
import { useChangeRequest } from '../api/get-change-request';
import { useChangeRequestPages } from '../api/get-change-request-pages';
import {
  DeletePageDialog,
  MovePageDialog,
  NewPageDialog,
  NewReusableContentDialog,
  RenamePageDialog,
} from '../forms/page-dialogs';
import { useReusableContents } from '../api/get-reusable-contents';
import { ReusableContentEditor } from './reusable-content-editor';
import { editErrorMessage } from '../utils/edit-errors';
import { PageEditor } from './page-editor';
import '../change-requests.css';

interface Props {
  organizationId: string;
  spaceId: string;
  number: number;
  /** The page being edited; none when the change request has no page yet. */
  pageId?: string;
  /** The reusable content being edited instead of a page. */
  reusableId?: string;
  /** Text of the page to select when it opens (a broken link to fix). */
  find?: string;
  /** The space refuses edits (locked). */
  spaceLocked: boolean;
}

/** Why the pages of a change request cannot be edited, or undefined when they can. */
export function readOnlyReason(changeRequest: ChangeRequest, spaceLocked: boolean): string | undefined {
  if (changeRequest.status === 'merged') return 'This change request is merged: its pages can no longer change.';
  if (changeRequest.status === 'archived') return 'This change request is archived: reopen it to edit its pages.';
  if (!changeRequest.permissions.edit) return 'You can read this change request but not edit it.';
  if (spaceLocked) return 'The space is locked: its content cannot be edited.';
  return undefined;
}

/** The change request's pages beside the editor of one of them; pages are added, renamed, moved and deleted here. */
export function ChangeRequestEditor({ organizationId, spaceId, number, pageId, reusableId, find, spaceLocked }: Props) {
  const changeRequest = useChangeRequest(spaceId, number);
  const pages = useChangeRequestPages(spaceId, number);
  const readOnly = readOnlyReason(changeRequest, spaceLocked);
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const openPage = (id: string) =>
    navigate({
      to: '/o/$organizationId/spaces/$spaceId/change-requests/$number/pages/$pageId',
      params: { organizationId, spaceId, number, pageId: id },
    });
  const common = { spaceId, number, revision: changeRequest.revision, pages };

  return (
    <div className="content-layout">
      <aside className="content-sidebar" aria-label="Pages of the change request">
        <div className="content-sidebar-header">
          <h3 className="content-sidebar-title">Pages</h3>
          {!readOnly && (
            <Button ref={addButton} size="sm" onClick={() => setAdding(true)}>
              <PlusIcon /> New page
            </Button>
          )}
        </div>
        {pages.length > 0 ? (
          <PageTree
            pages={pages}
            label="Pages in this change request"
            activeId={pageId}
            renderLink={(page, className) => (
              <Link
                to="/o/$organizationId/spaces/$spaceId/change-requests/$number/pages/$pageId"
                params={{ organizationId, spaceId, number, pageId: page.id }}
                className={className}
                aria-current={page.id === pageId ? 'page' : undefined}
              >
                <span className="page-tree-icon" aria-hidden="true">
                  {page.emoji || <DocIcon />}
                </span>
                <span className="page-tree-title">{page.title || 'Untitled'}</span>
                <HiddenPageMark page={page} />
              </Link>
            )}
            actions={
              readOnly
                ? undefined
                : (page, place) => (
                    <PageActions
                      {...common}
                      page={page}
                      place={place}
                      onOpen={(id) => void openPage(id)}
                      onDeleted={() => {
                        if (page.id === pageId || (pageId && containsPage(page, pageId))) {
                          void navigate({
                            to: '/o/$organizationId/spaces/$spaceId/change-requests/$number/pages',
                            params: { organizationId, spaceId, number },
                          });
                        }
                      }}
                    />
                  )
            }
          />
        ) : (
          <p className="content-sidebar-empty">No pages yet.</p>
        )}
        <ReusableContentList
          organizationId={organizationId}
          spaceId={spaceId}
          number={number}
          revision={changeRequest.revision}
          activeId={reusableId}
          readOnly={readOnly !== undefined}
          onCreated={(id) =>
            void navigate({
              to: '/o/$organizationId/spaces/$spaceId/change-requests/$number/reusable/$reusableId',
              params: { organizationId, spaceId, number, reusableId: id },
            })
          }
        />
      </aside>
      <div className="content-main">
        {reusableId ? (
          <Suspense fallback={<Loading label="Loading the reusable content…" />}>
            <ReusableContentEditor
              key={reusableId}
              organizationId={organizationId}
              spaceId={spaceId}
              number={number}
              reusableId={reusableId}
              readOnly={readOnly}
              onDeleted={() =>
                void navigate({
                  to: '/o/$organizationId/spaces/$spaceId/change-requests/$number/pages',
                  params: { organizationId, spaceId, number },
                })
              }
            />
          </Suspense>
        ) : pageId ? (
          <Suspense fallback={<Loading label="Loading the page…" />}>
            <PageEditor
              key={pageId}
              organizationId={organizationId}
              spaceId={spaceId}
              number={number}
              pageId={pageId}
              readOnly={readOnly}
              {...(find ? { find } : {})}
            />
          </Suspense>
        ) : (
          <EmptyState
            icon={<DocIcon width={28} height={28} />}
            title={pages.length > 0 ? 'Choose a page to edit' : 'No pages yet'}
            action={
              !readOnly && (
                <Button variant="primary" onClick={() => setAdding(true)}>
                  <PlusIcon /> Add a page
                </Button>
              )
            }
          >
            {readOnly ??
              (pages.length > 0
                ? 'Pick a page in the list, or add one.'
                : 'Add the first page of this change request. It reaches the space when the change request is merged.')}
          </EmptyState>
        )}
      </div>
      {!readOnly && (
        <NewPageDialog
          {...common}
          open={adding}
          onOpenChange={setAdding}
          returnFocusRef={addButton}
          onCreated={(page) => {
            setAdding(false);
            if (page.type === 'document') void openPage(page.id);
          }}
        />
      )}
    </div>
  );
}

/** The change request's reusable contents, below its pages: each opens in the editor; new ones are added here. */
function ReusableContentList({
  organizationId,
  spaceId,
  number,
  revision,
  activeId,
  readOnly,
  onCreated,
}: {
  organizationId: string;
  spaceId: string;
  number: number;
  revision: string;
  activeId?: string;
  readOnly: boolean;
  onCreated: (id: string) => void;
}) {
  const list = useReusableContents(spaceId, number);
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const items = list.data?.items ?? [];
  return (
    // Not a labelled region: "Reusable content" would answer to the editor's "Content" field's label in searches.
    <div className="reusable-list">
      <div className="content-sidebar-header">
        <h3 className="content-sidebar-title">Reusable content</h3>
        {!readOnly && (
          <Button ref={addButton} size="sm" onClick={() => setAdding(true)}>
            <PlusIcon /> New
          </Button>
        )}
      </div>
      {list.isPending ? (
        <p className="content-sidebar-empty">Loading…</p>
      ) : list.isError ? (
        <p className="content-sidebar-empty" role="alert">
          {errorMessage(list.error)}
        </p>
      ) : items.length ? (
        <ul className="reusable-items">
          {items.map((item) => (
            <li key={item.id}>
              <Link
                to="/o/$organizationId/spaces/$spaceId/change-requests/$number/reusable/$reusableId"
                params={{ organizationId, spaceId, number, reusableId: item.id }}
                className="page-tree-link"
                aria-current={item.id === activeId ? 'page' : undefined}
              >
                <span className="page-tree-title">{item.title || 'Untitled'}</span>
              </Link>
            </li>
          ))}
          {(list.data?.count ?? 0) > items.length && (
            <li className="content-sidebar-empty">and {list.data!.count - items.length} more</li>
          )}
        </ul>
      ) : (
        <p className="content-sidebar-empty">None yet: text shown in several pages is written once here.</p>
      )}
      {!readOnly && (
        <NewReusableContentDialog
          spaceId={spaceId}
          number={number}
          revision={revision}
          open={adding}
          onOpenChange={setAdding}
          returnFocusRef={addButton}
          onCreated={(id) => {
            setAdding(false);
            onCreated(id);
          }}
        />
      )}
    </div>
  );
}

function containsPage(page: RevisionPage, id: string): boolean {
  return (page.pages ?? []).some((child) => child.id === id || containsPage(child, id));
}

type PageDialog = 'add' | 'rename' | 'move' | 'delete';

function PageActions({
  spaceId,
  number,
  revision,
  pages,
  page,
  place,
  onOpen,
  onDeleted,
}: {
  spaceId: string;
  number: number;
  revision: string;
  pages: RevisionPage[];
  page: RevisionPage;
  place: PagePlace;
  onOpen: (id: string) => void;
  onDeleted: () => void;
}) {
  const { trigger, openDialog, onCloseAutoFocus, dialog } = useMenuDialogs<PageDialog>();
  const edit = useEditChangeRequestContent(spaceId, number);
  const toast = useToast();
  const common = { spaceId, number, revision, pages };
  const title = page.title || 'Untitled';
  const move = (at: number) =>
    edit.mutate(
      { revision, changes: [{ operation: 'update_page', page: page.id, at }] },
      { onError: (error) => toast.show(errorMessage(editErrorMessage(error)), 'error') },
    );
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          ref={trigger}
          className="btn btn-ghost btn-sm btn-icon"
          aria-label={`Actions for page ${title}`}
        >
          <MoreIcon />
        </DropdownMenuTrigger>
        <DropdownMenuContent onCloseAutoFocus={onCloseAutoFocus}>
          {page.type !== 'link' && (
            <DropdownMenuItem icon={<PlusIcon />} onSelect={() => openDialog('add')}>
              Add page inside…
            </DropdownMenuItem>
          )}
          <DropdownMenuItem onSelect={() => openDialog('rename')}>Rename…</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => openDialog('move')}>Move to…</DropdownMenuItem>
          <DropdownMenuItem disabled={place.index === 0 || edit.isPending} onSelect={() => move(place.index - 1)}>
            Move up
          </DropdownMenuItem>
          <DropdownMenuItem
            disabled={place.index === place.siblings.length - 1 || edit.isPending}
            onSelect={() => move(place.index + 1)}
          >
            Move down
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem danger icon={<TrashIcon />} onSelect={() => openDialog('delete')}>
            Delete…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {page.type !== 'link' && (
        <NewPageDialog
          {...common}
          {...dialog('add')}
          parent={page.id}
          onCreated={(created) => {
            dialog('add').onOpenChange(false);
            if (created.type === 'document') onOpen(created.id);
          }}
        />
      )}
      <RenamePageDialog {...common} {...dialog('rename')} page={page} />
      <MovePageDialog {...common} {...dialog('move')} page={page} parent={place.parent} />
      <DeletePageDialog {...common} {...dialog('delete')} page={page} onDeleted={onDeleted} />
    </>
  );
}
