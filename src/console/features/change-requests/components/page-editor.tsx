import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useBlocker } from '@tanstack/react-router';
import { lazy, Suspense, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ClipboardEvent, DragEvent, ReactNode, RefObject } from 'react';
import { useController, useWatch } from 'react-hook-form';
import type { Control } from 'react-hook-form';
import { z } from 'zod';
import {
  FILE_UPLOAD_MAX_BYTES,
  pageBodySchema,
  PAGE_TITLE_MAX,
  PAGE_DESCRIPTION_MAX,
  PAGE_ICON_MAX,
  EMOJI_MAX,
  DEFAULT_PAGE_LAYOUT,
  pageCoverSchema,
  pageLayoutSchema,
  updatePageOperationSchema,
} from '../../../../shared/contract';
import type { ContentChange, RevisionPage, User } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogFooter } from '../../../components/ui/dialog';
import { CheckboxField, FieldFrame, fieldDescribedBy, SelectField, TextField } from '../../../components/ui/field';
import { AlertIcon } from '../../../components/ui/icons';
import { withoutTitle } from '../../../../shared/page-title';
import { Markdown, safeHref } from '../../../components/ui/markdown';
import { MarkdownFilesContext, revisionFilesUrl } from '../../../components/ui/markdown-files';
import { isApiError } from '../../../lib/api-client';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { ROOT_SERVER_ERROR, showServerError, useZodForm } from '../../../lib/form';
import { queryKeys } from '../../../lib/query-keys';
import { useEditChangeRequestContent, useUploadChangeRequestFile } from '../api/edit-change-request-content';
import { changeRequestQueryOptions, useChangeRequest } from '../api/get-change-request';
import { changeRequestPageQueryOptions, useChangeRequestPage } from '../api/get-change-request-page';
import { editErrorMessage, isStaleEdit, STALE_EDIT_MESSAGE } from '../utils/edit-errors';
import { onlyOwnEditsElsewhere } from '../utils/own-edits';
import {
  editorIdentity,
  loadVisualEditor,
  preloadEditor,
  storedMode,
  EDITOR_MODE_KEY,
  type EditorMode,
} from '../utils/editor-mode';
import { contentTypeOf, fileMarkdown, fileProblem, FILES_AT_ONCE_MAX, nameOf } from '../utils/file-upload';
import type { SharedEditorHandle } from '../../../components/editor/shared-page-editor';
import type { LinkTarget } from '../../../components/editor/link-dialog';
import { changeRequestPagesQueryOptions } from '../api/get-change-request-pages';
import { useReusableContents } from '../api/get-reusable-contents';
import { useChangeRequestFiles } from '../api/get-change-request-files';
import { includePath } from './reusable-content-editor';
import '../change-requests.css';

const SharedPageEditor = lazy(loadVisualEditor);
preloadEditor();

/** The writer's last choice of editor, on this browser. */
function useEditorMode(): [EditorMode, (mode: EditorMode) => void] {
  const [mode, setMode] = useState<EditorMode>(storedMode);
  return [
    mode,
    (next) => {
      setMode(next);
      try {
        window.localStorage.setItem(EDITOR_MODE_KEY, next);
      } catch {
        // Private browsing: the choice lasts for this page only.
      }
    },
  ];
}

/** Selects `start`–`end` of a textarea, with the focus, its line scrolled into view. */
function selectInTextarea(el: HTMLTextAreaElement, start: number, end: number) {
  el.focus();
  el.setSelectionRange(start, end);
  // The textarea scrolls to the line from its share of the text.
  el.scrollTop = Math.max(
    0,
    (el.scrollHeight * el.value.slice(0, start).split('\n').length) / el.value.split('\n').length - el.clientHeight / 2,
  );
}

/** The document pages of a tree but `except`, as link targets. */
function pageTargets(pages: RevisionPage[], except: string): LinkTarget[] {
  const out: LinkTarget[] = [];
  const walk = (list: RevisionPage[]) => {
    for (const p of list) {
      if (p.type === 'document' && p.id !== except) {
        out.push({ label: p.title || 'Untitled', detail: p.path ? `/${p.path}` : 'Page', href: `/pages/${p.id}` });
      }
      walk(p.pages ?? []);
    }
  };
  walk(pages);
  return out;
}

/** Title and body of a page, validated as the server validates an `update_page`. */
export const pageFormSchema = updatePageOperationSchema
  .pick({ title: true })
  .required()
  .extend({ markdown: pageBodySchema.shape.markdown.unwrap() });
export type PageFormInput = z.input<typeof pageFormSchema>;

/** A page's form: its title, emoji, icon, description, publishing options and cover, and its body. */
const pageEditorSchema = pageFormSchema
  .extend(
    updatePageOperationSchema
      .pick({ emoji: true, icon: true, description: true, hidden: true, noIndex: true, noRobotsIndex: true })
      .required().shape,
  )
  .extend({
    layout: pageLayoutSchema.omit({ cover: true, coverSize: true }),
    /** The cover's file id, '' for none. */
    cover: pageCoverSchema.shape.file.or(z.literal('')),
  });
/** The layout options a page's form edits (a cover is not set here). */
const LAYOUT_OPTIONS = ['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata'] as const;
const LAYOUT_LABELS: Record<(typeof LAYOUT_OPTIONS)[number], string> = {
  title: 'Show the heading',
  description: 'Show the line under the heading',
  tableOfContents: 'Show the page tree beside it',
  outline: 'Show “On this page”',
  pagination: 'Show the previous and next pages',
  metadata: 'Show when it was last updated',
};
type PageEditorInput = z.input<typeof pageEditorSchema>;

function valuesOf(page: RevisionPage): PageEditorInput {
  return {
    title: page.title,
    markdown: page.markdown ?? '',
    emoji: page.emoji ?? '',
    description: page.description ?? '',
    icon: page.icon ?? '',
    hidden: page.hidden ?? false,
    noIndex: page.noIndex ?? false,
    noRobotsIndex: page.noRobotsIndex ?? false,
    layout: {
      width: page.layout?.width ?? DEFAULT_PAGE_LAYOUT.width,
      ...Object.fromEntries(LAYOUT_OPTIONS.map((key) => [key, page.layout?.[key] ?? DEFAULT_PAGE_LAYOUT[key]])),
    } as PageEditorInput['layout'],
    cover: page.cover?.ref.file ?? '',
  };
}

interface Props {
  /** The space's organization: OpenAPI blocks of the preview show its specs' operations. */
  organizationId: string;
  spaceId: string;
  number: number;
  pageId: string;
  /** Why the page cannot be edited; undefined when it can. */
  readOnly?: string;
  /** Text to select in the content when the editor opens (a broken link to fix), if the page has it. */
  find?: string;
}

/**
 * One page of a change request: its title and markdown beside a live preview. Its content is that of a known
 * revision of the change request (`base`); saving sends it as If-Match, so an edit made meanwhile by someone else
 * is never overwritten. Edits this console made elsewhere (another page added in the sidebar) are adopted.
 */
export function PageEditor({ organizationId, spaceId, number, pageId, readOnly, find }: Props) {
  const changeRequest = useChangeRequest(spaceId, number);
  const [base, setBase] = useState(changeRequest.revision);
  const [dirty, setDirty] = useState(false);
  const edit = useEditChangeRequestContent(spaceId, number);
  const origin = useId();
  const current = changeRequest.revision;
  const adopt =
    base !== current &&
    !edit.isPending &&
    (!dirty || readOnly !== undefined || onlyOwnEditsElsewhere(base, current, pageId, origin));
  // The page as of the new revision is adopted once it is loaded, never by suspending: that would hide the form,
  // dropping the text typed in it, and remount the visual editor (reconnecting it, losing an upload under way).
  const next = useQuery({
    ...changeRequestPageQueryOptions(spaceId, number, pageId, current),
    enabled: adopt,
  });
  if (adopt && next.data !== undefined) setBase(current);
  const page = useChangeRequestPage(spaceId, number, pageId, base);
  const changedMeanwhile = base !== current && !edit.isPending;

  // A reader of a change request still being written watches it being written, live, in the visual editor.
  const live = changeRequest.status === 'open' || changeRequest.status === 'draft';
  if (readOnly !== undefined && live && page.type === 'document' && storedMode() === 'visual') {
    return <WatchedPage spaceId={spaceId} number={number} page={page} notice={readOnly} filesBase={base} />;
  }
  if (readOnly !== undefined) {
    return (
      <MarkdownFilesContext.Provider value={revisionFilesUrl(spaceId, base)}>
        <PagePreview organizationId={organizationId} page={page} notice={readOnly} />
      </MarkdownFilesContext.Provider>
    );
  }
  if (page.type === 'group') {
    return (
      <PagePreview
        organizationId={organizationId}
        page={page}
        notice="A group has no content of its own: it gathers the pages inside it. Rename or move it from the list."
      />
    );
  }
  if (page.type === 'link') {
    return (
      <PagePreview
        organizationId={organizationId}
        page={page}
        notice="A link page points elsewhere; it has no content to edit here."
      />
    );
  }
  return (
    <PageForm
      organizationId={organizationId}
      spaceId={spaceId}
      number={number}
      page={page}
      base={base}
      origin={origin}
      changedMeanwhile={changedMeanwhile}
      edit={edit}
      onDirtyChange={setDirty}
      onSaved={setBase}
      onReload={setBase}
      {...(find ? { find } : {})}
    />
  );
}

/** Why a page is shown rather than edited, and its emoji and title (the heading `id` names its article). */
function PageArticleHead({ id, page, notice }: { id: string; page: RevisionPage; notice: string }) {
  return (
    <>
      <p className="notice notice-info">{notice}</p>
      <header className="page-article-header">
        <h3 id={id} className="page-article-title">
          {page.emoji && <span aria-hidden="true">{page.emoji} </span>}
          {page.title || 'Untitled'}
        </h3>
      </header>
    </>
  );
}

/** A page of the change request shown as it is being written, without a way to type in it. */
function WatchedPage({
  spaceId,
  number,
  page,
  notice,
  filesBase,
}: {
  spaceId: string;
  number: number;
  page: RevisionPage;
  notice: string;
  filesBase: string;
}) {
  const queryClient = useQueryClient();
  const me = queryClient.getQueryData<User>(queryKeys.user);
  return (
    <article className="page-article" aria-labelledby="page-watch-title">
      <PageArticleHead id="page-watch-title" page={page} notice={notice} />
      <Suspense fallback={<p className="editor-loading">Opening the page…</p>}>
        <SharedPageEditor
          spaceId={spaceId}
          number={number}
          pageId={page.id}
          me={editorIdentity(me)}
          label="Content"
          filesUrl={revisionFilesUrl(spaceId, filesBase)}
        />
      </Suspense>
    </article>
  );
}

function PagePreview({ organizationId, page, notice }: { organizationId: string; page: RevisionPage; notice: string }) {
  const href = safeHref(page.href);
  return (
    <article className="page-article" aria-labelledby="page-preview-title">
      <PageArticleHead id="page-preview-title" page={page} notice={notice} />
      {page.type === 'link' && href && (
        <p>
          Points to{' '}
          <a href={href} target="_blank" rel="noopener noreferrer nofollow">
            {href}
          </a>
        </p>
      )}
      {page.type === 'document' &&
        (page.markdown?.trim() ? (
          <Markdown headingOffset={2} organizationId={organizationId}>
            {withoutTitle(page.markdown, page.title)}
          </Markdown>
        ) : (
          <p className="page-article-empty">This page is empty.</p>
        ))}
    </article>
  );
}

function PageForm({
  organizationId,
  spaceId,
  number,
  page,
  base,
  origin,
  changedMeanwhile,
  edit,
  onDirtyChange,
  onSaved,
  onReload,
  find,
}: {
  find?: string;
  organizationId: string;
  spaceId: string;
  number: number;
  page: RevisionPage;
  base: string;
  origin: string;
  changedMeanwhile: boolean;
  edit: ReturnType<typeof useEditChangeRequestContent>;
  onDirtyChange: (dirty: boolean) => void;
  onSaved: (revision: string) => void;
  onReload: (revision: string) => void;
}) {
  const form = useZodForm(pageEditorSchema, { defaultValues: valuesOf(page) });
  const files = useChangeRequestFiles(spaceId, number);
  const images = (files.data?.items ?? []).filter((file) => file.contentType.startsWith('image/'));
  // The body's field and preview (shared with the reusable-content editor) read and write `markdown` only.
  const bodyControl = form.control as unknown as Control<PageFormInput>;
  const queryClient = useQueryClient();
  const toast = useToast();
  const { isDirty, isSubmitting, errors } = form.formState;
  const [stale, setStale] = useState(false);
  const [reloading, setReloading] = useState(false);
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const fileInput = useRef<HTMLInputElement | null>(null);
  const [upload, setUpload] = useState<{ name: string; index: number; total: number } | null>(null);
  const [uploadError, setUploadError] = useState<string | undefined>();
  const uploadFile = useUploadChangeRequestFile(spaceId, number);
  const [mode, setMode] = useEditorMode();
  const visual = useRef<SharedEditorHandle | null>(null);
  // In the visual editor the body is shared and written by the server: the form saves the title only.
  const shared = mode === 'visual';
  const [switching, setSwitching] = useState(false);
  // The writer's place carried from one editor to the other: the top-level block of the page it was in.
  const [caret, setCaret] = useState<{ mode: EditorMode; block: number } | null>(null);
  const me = queryClient.getQueryData<User>(queryKeys.user);
  // The other pages a link may go to, by id: the link follows a page renamed or moved. Read without suspending: an
  // edit refetches them, and the form must not be unmounted under an upload or the shared editor.
  const pages = useQuery(changeRequestPagesQueryOptions(spaceId, number)).data;
  const linkTargets = useMemo(() => pageTargets(pages ?? [], page.id), [pages, page.id]);
  const reusable = useReusableContents(spaceId, number).data;
  const includeTargets = useMemo(
    () => (reusable?.items ?? []).map((content) => ({ value: includePath(content), label: content.title })),
    [reusable],
  );
  /** The change request's revision now: what the server wrote from the shared body moves it on. */
  const latestRevision = async () =>
    (await queryClient.fetchQuery({ ...changeRequestQueryOptions(spaceId, number), staleTime: 0 })).revision;

  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  // Opened to fix a broken link: the link's text selected, in view, with the focus.
  useEffect(() => {
    const el = textarea.current;
    const at = find ? el?.value.indexOf(find) : -1;
    if (!el || at === undefined || at < 0) return;
    selectInTextarea(el, at, at + find!.length);
  }, [find]);
  // Switched from the visual editor: the cursor where it was there, at the start of its block.
  useEffect(() => {
    const el = textarea.current;
    if (mode !== 'markdown' || caret?.mode !== 'markdown' || !el) return;
    const block = caret.block;
    void loadVisualEditor().then(({ blockOffset }) => {
      const at = blockOffset(el.value, block);
      selectInTextarea(el, at, at);
      setCaret(null);
    });
  }, [mode, caret]);
  // Another revision of the page was adopted while nothing was typed: show it.
  useEffect(() => {
    if (!form.formState.isDirty) form.reset(valuesOf(page));
  }, [page, form]);

  const blocker = useBlocker({
    shouldBlockFn: () => form.formState.isDirty && !form.formState.isSubmitting,
    enableBeforeUnload: () => form.formState.isDirty,
    withResolver: true,
  });

  const onSubmit = form.handleSubmit(async (values) => {
    const change: Extract<ContentChange, { operation: 'update_page' }> = { operation: 'update_page', page: page.id };
    if (values.title !== page.title) change.title = values.title;
    if (values.emoji !== (page.emoji ?? '')) change.emoji = values.emoji;
    if (values.description !== (page.description ?? '')) change.description = values.description;
    if (values.hidden !== (page.hidden ?? false)) change.hidden = values.hidden;
    if (values.noIndex !== (page.noIndex ?? false)) change.noIndex = values.noIndex;
    if (values.noRobotsIndex !== (page.noRobotsIndex ?? false)) change.noRobotsIndex = values.noRobotsIndex;
    if (values.icon !== (page.icon ?? '')) change.icon = values.icon;
    const layout = Object.fromEntries(
      Object.entries(values.layout).filter(
        ([key, value]) => value !== (page.layout ?? DEFAULT_PAGE_LAYOUT)[key as keyof typeof values.layout],
      ),
    );
    if (Object.keys(layout).length) change.layout = layout;
    if (values.cover !== (page.cover?.ref.file ?? '')) change.cover = values.cover ? { file: values.cover } : null;
    if (!shared && values.markdown !== (page.markdown ?? '')) change.document = { markdown: values.markdown };
    if (Object.keys(change).length === 2) return;
    setStale(false);
    const send = async () =>
      edit.mutateAsync({
        // A title changes nobody's text: it goes on the latest revision, whatever the others wrote meanwhile.
        revision: shared ? await latestRevision() : base,
        changes: [change],
        origin,
        // What the server now holds for this page is what was sent: the editor goes on without loading it again.
        onApplied: ({ changeRequest }) =>
          queryClient.setQueryData(queryKeys.changeRequests.page(spaceId, number, page.id, changeRequest.revision), {
            ...page,
            title: values.title,
            markdown: values.markdown,
            emoji: values.emoji || undefined,
            description: values.description || undefined,
            hidden: values.hidden || undefined,
            noIndex: values.noIndex || undefined,
            noRobotsIndex: values.noRobotsIndex || undefined,
            icon: values.icon || undefined,
            layout: { ...DEFAULT_PAGE_LAYOUT, ...page.layout, ...values.layout },
            cover: values.cover
              ? {
                  ref: { kind: 'file', file: values.cover },
                  yPos: values.cover === page.cover?.ref.file ? page.cover.yPos : 0,
                }
              : undefined,
          }),
      });
    try {
      let result: Awaited<ReturnType<typeof send>>;
      for (let attempt = 1; ; attempt++) {
        try {
          result = await send();
          break;
        } catch (error) {
          // Shared: the server wrote the page from what was typed between reading the revision and saving (the
          // details change nobody's text): sent again on the new one.
          if (!shared || !isStaleEdit(error) || attempt >= 3) throw error;
        }
      }
      const saved = result.changeRequest.revision;
      form.reset(values);
      onSaved(saved);
      toast.show('Page saved');
    } catch (error) {
      if (isStaleEdit(error)) setStale(true);
      else showServerError(form, editErrorMessage(error), ['title', 'markdown']);
    }
  });

  /**
   * Stores files in the change request (one upload each, streamed to the server, so each shows its progress and a
   * refused one stops only itself) and inserts markdown naming them at the cursor: `![name](/files/<id>)` for images,
   * `[name](/files/<id>)` for other files, as the published site resolves them.
   */
  const uploadFiles = async (files: File[]) => {
    if (!files.length || upload) return;
    setUploadError(undefined);
    if (files.length > FILES_AT_ONCE_MAX) {
      setUploadError(`Upload at most ${FILES_AT_ONCE_MAX} files at once; ${files.length} were given.`);
      return;
    }
    const problem = files.map(fileProblem).find(Boolean);
    if (problem) {
      setUploadError(problem);
      return;
    }
    const el = textarea.current;
    const value = form.getValues('markdown') ?? '';
    let start = el ? el.selectionStart : value.length;
    let end = el ? el.selectionEnd : value.length;
    let revision = shared ? await latestRevision().catch(() => base) : base;
    for (const [index, file] of files.entries()) {
      const name = nameOf(file);
      setUpload({ name, index, total: files.length });
      try {
        const contentType = contentTypeOf(file);
        const result = await uploadFile.mutateAsync({
          file,
          name,
          ...(contentType ? { contentType } : {}),
          revision,
          origin,
        });
        revision = result.changeRequest.revision;
        const stored = result.insertedFiles?.[0];
        if (!stored) throw new Error(`The server stored "${name}" but did not say where.`);
        if (visual.current) {
          // The visual editor puts it where the writer is (or where it was dropped), and keeps their place. The
          // page as of the new revision (whose files show the image) is read before the editor moves to it, so the
          // form is not suspended, and the editor not remounted, under the uploads still to come.
          visual.current.insertMarkdown(fileMarkdown(stored), revisionFilesUrl(spaceId, revision));
          await queryClient
            .ensureQueryData(changeRequestPageQueryOptions(spaceId, number, page.id, revision))
            .catch(() => undefined);
          onSaved(revision);
          continue;
        }
        onSaved(revision);
        const current = form.getValues('markdown') ?? '';
        const before = current.slice(0, start);
        // An image stands as a paragraph of its own.
        const image = stored.contentType.startsWith('image/');
        const pad = !before
          ? ''
          : image
            ? before.endsWith('\n\n')
              ? ''
              : before.endsWith('\n')
                ? '\n'
                : '\n\n'
            : /\s$/.test(before)
              ? ''
              : ' ';
        const after = current.slice(end);
        const tail = image && after && !after.startsWith('\n\n') ? (after.startsWith('\n') ? '\n' : '\n\n') : '';
        const text = `${pad}${fileMarkdown(stored)}${tail}`;
        const next = before + text + after;
        form.setValue('markdown', next, { shouldDirty: true, shouldValidate: true });
        start = end = before.length + text.length;
      } catch (error) {
        if (isStaleEdit(error)) setStale(true);
        else {
          const message = error instanceof Error ? error.message : String(error);
          setUploadError(
            isApiError(error, 413)
              ? `"${name}" is too large to upload.`
              : `"${name}" could not be uploaded: ${message.replace(/\.?$/, '.')}`,
          );
        }
        break;
      }
    }
    setUpload(null);
    if (visual.current) return;
    const caret = start;
    requestAnimationFrame(() => {
      textarea.current?.focus();
      textarea.current?.setSelectionRange(caret, caret);
    });
  };

  /**
   * Changes editor. Leaving the visual editor waits until the server wrote what was typed there, then shows the
   * page as of then; entering it saves what was typed in markdown first (the shared body starts from the page).
   */
  const switchTo = async (next: 'visual' | 'markdown') => {
    if (next === mode || switching) return;
    setSwitching(true);
    try {
      if (next === 'markdown') {
        const block = visual.current?.caretBlock();
        await visual.current?.settle();
        await queryClient.invalidateQueries({ queryKey: queryKeys.changeRequests.detail(spaceId, number) });
        setCaret(block === undefined ? null : { mode: 'markdown', block });
      } else {
        if (form.getFieldState('markdown').isDirty) {
          await onSubmit();
          if (form.getFieldState('markdown').isDirty) return;
        }
        // The textarea keeps its selection when the toggle takes the focus.
        const el = textarea.current;
        if (el) {
          const { blockAt } = await loadVisualEditor();
          setCaret({ mode: 'visual', block: blockAt(el.value, el.selectionStart) });
        }
      }
      setMode(next);
    } finally {
      setSwitching(false);
    }
  };

  /** Discards the typed text: the page as of the change request's latest revision replaces it. */
  const reload = async () => {
    setReloading(true);
    try {
      const fresh = await queryClient.fetchQuery({ ...changeRequestQueryOptions(spaceId, number), staleTime: 0 });
      form.reset(valuesOf(page));
      form.clearErrors(ROOT_SERVER_ERROR);
      setStale(false);
      onReload(fresh.revision);
    } catch (error) {
      showServerError(form, error, []);
    } finally {
      setReloading(false);
    }
  };

  return (
    <form
      className="page-editor"
      onSubmit={(event) => {
        // What was typed in the visual editor in the last moments is written out first.
        visual.current?.flush();
        return onSubmit(event);
      }}
      noValidate
      aria-label={`Edit page ${page.title || 'Untitled'}`}
      onKeyDown={(event) => {
        if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 's') {
          event.preventDefault();
          visual.current?.flush();
          void onSubmit();
        }
      }}
    >
      {(stale || (changedMeanwhile && !shared)) && (
        <StaleEditNotice stale={stale} what="this page">
          <Button size="sm" loading={reloading} onClick={() => void reload()}>
            Reload the latest version
          </Button>
        </StaleEditNotice>
      )}
      <FormError message={errors.root?.server?.message} />
      <div className="page-editor-heading">
        <TextField
          control={form.control}
          name="emoji"
          label="Emoji"
          max={EMOJI_MAX}
          autoComplete="off"
          placeholder="📄"
          readOnly={isSubmitting}
        />
        <TextField
          control={form.control}
          name="title"
          label="Title"
          max={PAGE_TITLE_MAX}
          autoComplete="off"
          required
          readOnly={isSubmitting}
        />
      </div>
      <TextField
        control={form.control}
        name="description"
        label="Description"
        hint="A line under the title, on the page and in search results."
        max={PAGE_DESCRIPTION_MAX}
        autoComplete="off"
        readOnly={isSubmitting}
      />
      <CheckboxField
        control={form.control}
        name="hidden"
        label="Hide in the site’s navigation"
        hint="Readers reach the page at its address and through links; the table of contents and previous/next links leave it out."
        disabled={isSubmitting}
      />
      <details className="page-layout">
        <summary>Layout when published</summary>
        <SelectField
          control={form.control}
          name="layout.width"
          label="Width"
          options={[
            { value: 'default', label: 'Default: a readable measure' },
            { value: 'wide', label: 'Wide: as wide as the window allows' },
          ]}
          disabled={isSubmitting}
        />
        <CheckboxField
          control={form.control}
          name="noIndex"
          label="Leave out of the site’s search"
          disabled={isSubmitting}
        />
        <CheckboxField
          control={form.control}
          name="noRobotsIndex"
          label="Ask search engines not to index it"
          hint="The page says noindex to crawlers and is left out of the sitemap."
          disabled={isSubmitting}
        />
        <TextField
          control={form.control}
          name="icon"
          label="Icon"
          hint="A Font Awesome icon name, as GitBook names page icons (rocket, book-open). Kept with the page and its Git file; published pages show the emoji."
          max={PAGE_ICON_MAX}
          autoComplete="off"
          readOnly={isSubmitting}
        />
        <SelectField
          control={form.control}
          name="cover"
          label="Cover"
          hint="An image of this change request, shown above the page. Upload one with “Upload image or file”."
          options={[
            { value: '', label: 'None' },
            ...images.map((file) => ({ value: file.id, label: file.name })),
            // A cover whose file is not listed (yet): kept as it is.
            ...(page.cover && !images.some((f) => f.id === page.cover!.ref.file)
              ? [{ value: page.cover.ref.file, label: 'The current cover' }]
              : []),
          ]}
          disabled={isSubmitting}
        />
        <fieldset className="page-layout-options">
          <legend>What the published page shows</legend>
          {LAYOUT_OPTIONS.map((key) => (
            <CheckboxField
              key={key}
              control={form.control}
              name={`layout.${key}`}
              label={LAYOUT_LABELS[key]}
              disabled={isSubmitting}
            />
          ))}
        </fieldset>
      </details>
      <div className="editor-files">
        <div className="editor-mode" role="group" aria-label="Editor">
          {(['visual', 'markdown'] as const).map((m) => (
            <Button
              key={m}
              size="sm"
              variant={mode === m ? 'primary' : 'ghost'}
              aria-pressed={mode === m}
              disabled={switching}
              onClick={() => void switchTo(m)}
            >
              {m === 'visual' ? 'Visual' : 'Markdown'}
            </Button>
          ))}
        </div>
        <Button
          size="sm"
          disabled={isSubmitting || upload !== null}
          loading={upload !== null}
          onClick={() => fileInput.current?.click()}
        >
          Upload image or file
        </Button>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label="Upload image or file"
          data-testid="editor-file-input"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void uploadFiles(files);
          }}
        />
        <span className="editor-files-hint">
          Or drop files on the content, or paste an image. At most {Math.round(FILE_UPLOAD_MAX_BYTES / (1024 * 1024))}{' '}
          MB a file.
        </span>
        {upload && (
          <span className="editor-upload" role="status">
            <progress max={upload.total} value={upload.index} aria-label="Upload progress" />
            Uploading “{upload.name}”{upload.total > 1 ? ` (${upload.index + 1} of ${upload.total})` : ''}…
          </span>
        )}
      </div>
      <FormError message={uploadError} />
      {mode === 'visual' ? (
        <Suspense fallback={<p className="editor-loading">Opening the editor…</p>}>
          <SharedPageEditor
            ref={visual}
            spaceId={spaceId}
            number={number}
            pageId={page.id}
            me={editorIdentity(me)}
            label="Content"
            filesUrl={revisionFilesUrl(spaceId, base)}
            onFiles={(files) => void uploadFiles(files)}
            onUpload={() => fileInput.current?.click()}
            linkTargets={linkTargets}
            includeTargets={includeTargets}
            {...(caret?.mode === 'visual' ? { caretBlock: caret.block } : {})}
          />
        </Suspense>
      ) : (
        <div className="editor-panes">
          <MarkdownField
            control={bodyControl}
            readOnly={isSubmitting || upload !== null}
            textareaRef={textarea}
            onFiles={(files) => void uploadFiles(files)}
          />
          <MarkdownFilesContext.Provider value={revisionFilesUrl(spaceId, base)}>
            <Preview organizationId={organizationId} control={bodyControl} />
          </MarkdownFilesContext.Provider>
        </div>
      )}
      <div className="editor-toolbar">
        <span className="editor-status" role="status">
          {isSubmitting
            ? 'Saving…'
            : isDirty
              ? shared
                ? 'Unsaved details'
                : 'Unsaved changes'
              : shared
                ? 'Details saved'
                : 'All changes saved'}
        </span>
        <Button variant="ghost" disabled={!isDirty || isSubmitting} onClick={() => form.reset(valuesOf(page))}>
          Discard changes
        </Button>
        <Button type="submit" variant="primary" disabled={!isDirty} loading={isSubmitting}>
          {shared ? 'Save details' : 'Save page'}
        </Button>
      </div>
      <LeaveUnsavedDialog blocker={blocker} what="this page" />
    </form>
  );
}

/** Says that saving is refused because the change request changed since `what` was opened; `children` reload. */
export function StaleEditNotice({ stale, what, children }: { stale: boolean; what: string; children: ReactNode }) {
  return (
    <div className="notice notice-warning" role="alert">
      <AlertIcon />
      <div>
        <p className="notice-title">
          {stale
            ? STALE_EDIT_MESSAGE
            : `This change request changed meanwhile: someone else edited it since you opened ${what}.`}
        </p>
        <p>Saving would overwrite their work, so it is refused. Copy your text if you need it, then reload.</p>
        <p>{children}</p>
      </div>
    </div>
  );
}

/** Asks before leaving an editor with unsaved text (`blocker` of useBlocker with a resolver). */
export function LeaveUnsavedDialog({
  blocker,
  what,
}: {
  blocker: { status: string; reset?: () => void; proceed?: () => void };
  what: string;
}) {
  return (
    <Dialog
      open={blocker.status === 'blocked'}
      onOpenChange={(open) => {
        if (!open) blocker.reset?.();
      }}
      title="Leave without saving?"
      role="alertdialog"
      size="sm"
    >
      <div className="dialog-body">
        <p>The changes to {what} are not saved yet. If you leave, they are lost.</p>
      </div>
      <DialogFooter>
        <Button data-autofocus onClick={() => blocker.reset?.()}>
          Stay on the page
        </Button>
        <Button variant="danger" onClick={() => blocker.proceed?.()}>
          Leave and discard
        </Button>
      </DialogFooter>
    </Dialog>
  );
}

/** The files of a drop or paste, if it carries any (text dropped or pasted is left to the textarea). */
function filesOf(data: DataTransfer | null): File[] {
  return data ? [...data.files] : [];
}

export function MarkdownField({
  control,
  readOnly,
  textareaRef,
  onFiles,
}: {
  control: Control<PageFormInput>;
  readOnly: boolean;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  onFiles: (files: File[]) => void;
}) {
  const id = useId();
  const [dragging, setDragging] = useState(false);
  const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ control, name: 'markdown' });
  const error = fieldState.error?.message;
  const hint = 'Markdown with GFM tables and task lists. Drop or paste images and files here. Ctrl+S (⌘S) saves.';
  return (
    <FieldFrame id={id} label="Content" hint={hint} error={error}>
      <textarea
        id={id}
        ref={(el) => {
          ref(el);
          textareaRef.current = el;
        }}
        className={`input textarea editor-textarea${dragging ? ' editor-textarea-drop' : ''}`}
        onDragOver={(event) => {
          if (!carriesFiles(event)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          setDragging(false);
          const files = filesOf(event.dataTransfer);
          if (!files.length) return;
          event.preventDefault();
          if (!readOnly) onFiles(files);
        }}
        onPaste={(event: ClipboardEvent<HTMLTextAreaElement>) => {
          const files = filesOf(event.clipboardData);
          if (!files.length) return;
          event.preventDefault();
          if (!readOnly) onFiles(files);
        }}
        name={field.name}
        value={field.value ?? ''}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        readOnly={readOnly}
        spellCheck
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, { hint, error })}
      />
    </FieldFrame>
  );
}

/** How long typing pauses before the preview shows what was typed. */
const PREVIEW_AFTER_MS = 250;

/**
 * `value` once it has stayed the same for `ms`: what typing leaves, without the work of every keystroke. (A deferred
 * value is not enough: rendering a long page's markdown is one piece of work the next keystroke waits for.)
 */
function useSettledValue<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return;
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, settled, ms]);
  return settled;
}

export function Preview({ organizationId, control }: { organizationId: string; control: Control<PageFormInput> }) {
  const markdown = useWatch({ control, name: 'markdown' }) ?? '';
  const deferred = useDeferredValue(useSettledValue(markdown, PREVIEW_AFTER_MS));
  return (
    <section className="editor-preview" aria-label="Preview">
      <p className="editor-preview-label" aria-hidden="true">
        Preview
      </p>
      {deferred.trim() ? (
        <Markdown headingOffset={2} organizationId={organizationId}>
          {deferred}
        </Markdown>
      ) : (
        <p className="page-article-empty">Nothing to preview yet.</p>
      )}
    </section>
  );
}
