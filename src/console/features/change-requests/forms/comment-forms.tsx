import { useRef } from 'react';
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
import { useMentionPicker } from './mention-picker';
import '../change-requests.css';
import type { ThreadsOwner } from '../utils/paths';

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
  /** The organization whose members and teams `@` suggests. */
  organizationId: string;
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

/**
 * One markdown body with its live counter: Ctrl+Enter (⌘+Enter) sends, Escape cancels while nothing was typed, `@`
 * and a name suggests members and teams to mention (mention-picker.tsx).
 */
function MarkdownForm({
  schema,
  organizationId,
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
  const formRef = useRef<HTMLFormElement>(null);
  const mentions = useMentionPicker({
    organizationId,
    textarea: () => {
      const field = formRef.current?.elements.namedItem(BODY_FIELD);
      return field instanceof HTMLTextAreaElement ? field : null;
    },
    onText: (text) =>
      form.setValue(BODY_FIELD, text, { shouldDirty: true, shouldValidate: form.formState.isSubmitted }),
  });
  const submit = form.handleSubmit(async (values) => {
    mentions.close();
    try {
      await onSubmit(values);
      if (resetOnSuccess) form.reset({ body: { markdown: '' } });
    } catch (error) {
      showServerError(form, error, [BODY_FIELD]);
    }
  });
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mentions.onKeyDown(event)) return;
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
    <form
      ref={formRef}
      className="form comment-form"
      aria-label={name}
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <FormError message={form.formState.errors.root?.server?.message} />
      <div
        className="mention-field"
        // The list closes when the focus leaves the field (a click on an option keeps it there).
        onBlur={mentions.close}
      >
        <TextareaField
          control={form.control}
          name={BODY_FIELD}
          label={label}
          hint="Markdown. Ctrl+Enter to send, @ to mention."
          max={COMMENT_BODY_MAX}
          rows={3}
          autoFocus={autoFocus}
          onKeyDown={onKeyDown}
          {...mentions.textareaProps}
        />
        {mentions.list}
      </div>
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
  organizationId,
  spaceId,
  number,
  target,
  name,
  autoFocus,
  onPosted,
  onCancel,
}: {
  organizationId: string;
  spaceId: string;
  number: ThreadsOwner;
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
      organizationId={organizationId}
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
  organizationId,
  spaceId,
  number,
  commentId,
  name,
  autoFocus,
}: {
  organizationId: string;
  spaceId: string;
  number: ThreadsOwner;
  commentId: string;
  name: string;
  autoFocus?: boolean;
}) {
  const post = usePostCommentReply(spaceId, number, commentId);
  return (
    <MarkdownForm
      schema={postReplyBodySchema}
      organizationId={organizationId}
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
  organizationId,
  name,
  markdown,
  onSave,
  onCancel,
}: {
  organizationId: string;
  name: string;
  markdown: string;
  onSave: (markdown: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  return (
    <MarkdownForm
      schema={editSchema}
      organizationId={organizationId}
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
