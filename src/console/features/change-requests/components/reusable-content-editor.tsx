import { useQueryClient } from '@tanstack/react-query';
import { useBlocker } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { ContentChange, ReusableContent } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/field';
import { TrashIcon } from '../../../components/ui/icons';
import { Markdown } from '../../../components/ui/markdown';
import { MarkdownFilesContext, revisionFilesUrl } from '../../../components/ui/markdown-files';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { PAGE_TITLE_MAX } from '../../../../shared/contract';
import { showServerError, useZodForm } from '../../../lib/form';
import { queryKeys } from '../../../lib/query-keys';
import { useEditChangeRequestContent } from '../api/edit-change-request-content';
import { useChangeRequest } from '../api/get-change-request';
import { useReusableContent } from '../api/get-reusable-contents';
import { editErrorMessage, isStaleEdit } from '../utils/edit-errors';
import {
  LeaveUnsavedDialog,
  MarkdownField,
  pageFormSchema,
  Preview,
  StaleEditNotice,
  type PageFormInput,
} from './page-editor';

interface Props {
  organizationId: string;
  spaceId: string;
  number: number;
  reusableId: string;
  /** Why it cannot be edited; undefined when it can. */
  readOnly?: string;
  onDeleted: () => void;
}

/** The name a page gives a reusable content to include it, as GitBook's exports write it. */
export function includePath(content: Pick<ReusableContent, 'slug'>): string {
  return `../.gitbook/includes/${content.slug}.md`;
}

/** The tag a page writes to include a reusable content. */
export function includeTag(content: Pick<ReusableContent, 'slug'>): string {
  return `{% include "${includePath(content)}" %}`;
}

const valuesOf = (content: ReusableContent): PageFormInput => ({
  title: content.title,
  markdown: content.markdown ?? '',
});

/**
 * One reusable content of a change request: its title and markdown beside a preview, the tag that includes it in a
 * page, and its deletion. As a page's editor, it saves against the revision it was loaded from (If-Match), so no
 * one's edit made meanwhile is overwritten; with nothing typed, it follows the change request's latest revision.
 */
export function ReusableContentEditor({ organizationId, spaceId, number, reusableId, readOnly, onDeleted }: Props) {
  const changeRequest = useChangeRequest(spaceId, number);
  const [base, setBase] = useState(changeRequest.revision);
  const [dirty, setDirty] = useState(false);
  const edit = useEditChangeRequestContent(spaceId, number);
  if (base !== changeRequest.revision && !dirty && !edit.isPending) setBase(changeRequest.revision);
  const content = useReusableContent(spaceId, number, reusableId, base);
  const changedMeanwhile = base !== changeRequest.revision && !edit.isPending;
  return (
    <MarkdownFilesContext.Provider value={revisionFilesUrl(spaceId, base)}>
      {readOnly !== undefined ? (
        <article className="page-article" aria-labelledby="reusable-title">
          <p className="notice notice-info">{readOnly}</p>
          <header className="page-article-header">
            <h3 id="reusable-title" className="page-article-title">
              {content.title || 'Untitled'}
            </h3>
          </header>
          <IncludeHint content={content} />
          {content.markdown?.trim() ? (
            <Markdown headingOffset={2} organizationId={organizationId}>
              {content.markdown}
            </Markdown>
          ) : (
            <p className="page-article-empty">This reusable content is empty.</p>
          )}
        </article>
      ) : (
        <ReusableContentForm
          key={content.id}
          organizationId={organizationId}
          spaceId={spaceId}
          number={number}
          content={content}
          base={base}
          changedMeanwhile={changedMeanwhile}
          edit={edit}
          onDirtyChange={setDirty}
          onSaved={setBase}
          onDeleted={onDeleted}
        />
      )}
    </MarkdownFilesContext.Provider>
  );
}

function IncludeHint({ content }: { content: ReusableContent }) {
  const toast = useToast();
  const tag = includeTag(content);
  return (
    <div className="reusable-include">
      <p className="reusable-include-label">Include it in a page with:</p>
      <code className="reusable-include-tag">{tag}</code>
      <Button
        size="sm"
        onClick={() =>
          void navigator.clipboard.writeText(tag).then(
            () => toast.show('Copied the include tag'),
            () => toast.show('Could not copy: select the tag and copy it', 'error'),
          )
        }
      >
        Copy
      </Button>
    </div>
  );
}

function ReusableContentForm({
  organizationId,
  spaceId,
  number,
  content,
  base,
  changedMeanwhile,
  edit,
  onDirtyChange,
  onSaved,
  onDeleted,
}: {
  organizationId: string;
  spaceId: string;
  number: number;
  content: ReusableContent;
  base: string;
  changedMeanwhile: boolean;
  edit: ReturnType<typeof useEditChangeRequestContent>;
  onDirtyChange: (dirty: boolean) => void;
  onSaved: (revision: string) => void;
  onDeleted: () => void;
}) {
  const form = useZodForm(pageFormSchema, { defaultValues: valuesOf(content) });
  const queryClient = useQueryClient();
  const toast = useToast();
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const [deleting, setDeleting] = useState(false);
  const [stale, setStale] = useState(false);
  const [filesNote, setFilesNote] = useState<string | undefined>();
  const { isDirty, isSubmitting, errors } = form.formState;

  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  useEffect(() => {
    if (!form.formState.isDirty) form.reset(valuesOf(content));
  }, [content, form]);

  const blocker = useBlocker({
    shouldBlockFn: () => form.formState.isDirty && !form.formState.isSubmitting,
    enableBeforeUnload: () => form.formState.isDirty,
    withResolver: true,
  });

  const onSubmit = form.handleSubmit(async (values) => {
    const change: Extract<ContentChange, { operation: 'update_reusable_content' }> = {
      operation: 'update_reusable_content',
      reusableContent: content.id,
    };
    if (values.title !== content.title) change.title = values.title;
    if (values.markdown !== (content.markdown ?? '')) change.document = { markdown: values.markdown };
    if (change.title === undefined && change.document === undefined) return;
    setStale(false);
    try {
      const result = await edit.mutateAsync({
        revision: base,
        changes: [change],
        onApplied: ({ changeRequest }) =>
          queryClient.setQueryData(
            queryKeys.changeRequests.reusable(spaceId, number, content.id, changeRequest.revision),
            { ...content, title: values.title, markdown: values.markdown },
          ),
      });
      form.reset(values);
      onSaved(result.changeRequest.revision);
      toast.show('Reusable content saved');
    } catch (error) {
      if (isStaleEdit(error)) setStale(true);
      else showServerError(form, editErrorMessage(error), ['title', 'markdown']);
    }
  });

  return (
    <form
      className="page-editor"
      onSubmit={onSubmit}
      noValidate
      aria-label={`Edit reusable content ${content.title || 'Untitled'}`}
      onKeyDown={(event) => {
        if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 's') {
          event.preventDefault();
          void onSubmit();
        }
      }}
    >
      {(stale || changedMeanwhile) && (
        <StaleEditNotice stale={stale} what="this reusable content">
          <Button
            size="sm"
            onClick={() => {
              form.reset(valuesOf(content));
              setStale(false);
            }}
          >
            Discard my text and reload
          </Button>
        </StaleEditNotice>
      )}
      <FormError message={errors.root?.server?.message} />
      <TextField
        control={form.control}
        name="title"
        label="Title"
        max={PAGE_TITLE_MAX}
        autoComplete="off"
        required
        readOnly={isSubmitting}
      />
      <IncludeHint content={content} />
      <FormError message={filesNote} />
      <div className="editor-panes">
        <MarkdownField
          control={form.control}
          readOnly={isSubmitting}
          textareaRef={textarea}
          onFiles={() =>
            setFilesNote('Upload files on a page of the change request, then link them here (/files/<id>).')
          }
        />
        <Preview organizationId={organizationId} control={form.control} />
      </div>
      <div className="editor-toolbar">
        <Button
          ref={deleteButton}
          variant="ghost"
          className="editor-delete"
          onClick={() => setDeleting(true)}
          disabled={isSubmitting}
        >
          <TrashIcon /> Delete…
        </Button>
        <span className="editor-status" role="status">
          {isSubmitting ? 'Saving…' : isDirty ? 'Unsaved changes' : 'All changes saved'}
        </span>
        <Button variant="ghost" disabled={!isDirty || isSubmitting} onClick={() => form.reset(valuesOf(content))}>
          Discard changes
        </Button>
        <Button type="submit" variant="primary" disabled={!isDirty} loading={isSubmitting}>
          Save
        </Button>
      </div>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        returnFocusRef={deleteButton}
        title="Delete reusable content?"
        confirmLabel="Delete"
        action={async () => {
          try {
            await edit.mutateAsync({
              revision: base,
              changes: [{ operation: 'delete_reusable_content', reusableContent: content.id }],
            });
          } catch (error) {
            throw editErrorMessage(error);
          }
          form.reset(form.getValues());
          toast.show(`“${content.title || 'Untitled'}” deleted`);
          onDeleted();
        }}
      >
        <p>
          <strong>“{content.title || 'Untitled'}”</strong> will be deleted in this change request. Pages that include it
          show the include as a labelled block until it is removed from them.
        </p>
      </ConfirmDialog>
      <LeaveUnsavedDialog blocker={blocker} what="this reusable content" />
    </form>
  );
}
