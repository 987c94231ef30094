import type { KeyboardEvent } from 'react';
import type { z } from 'zod';
import { COMMENT_BODY_MAX } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { TextareaField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { showServerError, useZodForm } from '../../../lib/form';
import { usePostComment } from '../api/post-comment';
import { postCommentBodySchema } from '../../../../shared/contract';
import { usePostCommentReply } from '../api/post-comment-reply';
import { postReplyBodySchema } from '../../../../shared/contract';
import { updateReplyBodySchema } from '../../../../shared/contract';
import '../change-requests.css';

/** A new thread: its body; where it anchors (page, block) is not typed but chosen by the button that opened it. */
const newThreadSchema = postCommentBodySchema.pick({ body: true });
/** An edit of a comment or a reply: the same body rule, here required. */
const editSchema = updateReplyBodySchema.pick({ body: true }).required();

type BodySchema = typeof newThreadSchema | typeof postReplyBodySchema | typeof editSchema;
type BodyValues = z.output<BodySchema>;

/** The field every comment form has: its path is the request's (`body.markdown`), so server issues land beside it. */
const BODY_FIELD = 'body.markdown';

interface MarkdownFormProps {
  schema: BodySchema;
  /** The form's accessible name, e.g. "Reply to Ann". */
  name: string;
  label: string;
  submitLabel: string;
  defaultMarkdown?: string;
  autoFocus?: boolean;
  /** Runs with the valid body; throwing shows the server's error beside the field or above the form. */
  onSubmit: (values: BodyValues) => Promise<unknown>;
  onCancel?: () => void;
  /** Empties the field once sent (new comments and replies), rather than leaving it to the caller (edits). */
  resetOnSuccess?: boolean;
}

/** One markdown body with its live counter: Ctrl+Enter (⌘+Enter) sends, Escape cancels while nothing was typed. */
function MarkdownForm({
  schema,
  name,
  label,
  submitLabel,
  defaultMarkdown = '',
  autoFocus,
  onSubmit,
  onCancel,
  resetOnSuccess = false,
}: MarkdownFormProps) {
  const form = useZodForm(schema, { defaultValues: { body: { markdown: defaultMarkdown } } });
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
      if (resetOnSuccess) form.reset({ body: { markdown: '' } });
    } catch (error) {
      showServerError(form, error, [BODY_FIELD]);
    }
  });
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape' && onCancel && !form.formState.isDirty) {
      event.preventDefault();
      onCancel();
    }
  };
  const pending = form.formState.isSubmitting;
  return (
    <form className="form comment-form" aria-label={name} onSubmit={(event) => void submit(event)} noValidate>
      <FormError message={form.formState.errors.root?.server?.message} />
      <TextareaField
        control={form.control}
        name={BODY_FIELD}
        label={label}
        hint="Markdown. Ctrl+Enter to send."
        max={COMMENT_BODY_MAX}
        rows={3}
        autoFocus={autoFocus}
        onKeyDown={onKeyDown}
      />
      <div className="form-actions">
        {onCancel && (
          <Button size="sm" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        )}
        <Button size="sm" type="submit" variant="primary" loading={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** Where a new thread goes: a block of a page, a page, or (neither) the whole change request. */
export interface ThreadTarget {
  page?: string;
  node?: string;
}

/** Starts a thread; `onPosted` runs once the server has it (e.g. to close the form). */
export function NewThreadForm({
  spaceId,
  number,
  target,
  name,
  autoFocus,
  onPosted,
  onCancel,
}: {
  spaceId: string;
  number: number;
  target: ThreadTarget;
  name: string;
  autoFocus?: boolean;
  onPosted?: () => void;
  onCancel?: () => void;
}) {
  const post = usePostComment(spaceId, number);
  return (
    <MarkdownForm
      schema={newThreadSchema}
      name={name}
      label="Comment"
      submitLabel="Comment"
      autoFocus={autoFocus}
      resetOnSuccess
      onCancel={onCancel}
      onSubmit={async ({ body }) => {
        await post.mutateAsync({ ...target, body });
        onPosted?.();
      }}
    />
  );
}

export function ReplyForm({
  spaceId,
  number,
  commentId,
  name,
  autoFocus,
}: {
  spaceId: string;
  number: number;
  commentId: string;
  name: string;
  autoFocus?: boolean;
}) {
  const post = usePostCommentReply(spaceId, number, commentId);
  return (
    <MarkdownForm
      schema={postReplyBodySchema}
      name={name}
      label="Reply"
      submitLabel="Reply"
      autoFocus={autoFocus}
      resetOnSuccess
      onSubmit={(values) => post.mutateAsync(values)}
    />
  );
}

/** Edits the body of one's own comment or reply. */
export function EditPostForm({
  name,
  markdown,
  onSave,
  onCancel,
}: {
  name: string;
  markdown: string;
  onSave: (markdown: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  return (
    <MarkdownForm
      schema={editSchema}
      name={name}
      label="Text"
      submitLabel="Save"
      defaultMarkdown={markdown}
      autoFocus
      onCancel={onCancel}
      onSubmit={({ body }) => (body.markdown === markdown ? Promise.resolve(onCancel()) : onSave(body.markdown))}
    />
  );
}
