import { useWatch } from 'react-hook-form';
import { useId } from 'react';
import type { RefObject } from 'react';
import { z } from 'zod';
import {
  insertPageOperationSchema,
  insertReusableContentOperationSchema,
  PAGE_TITLE_MAX,
  updatePageOperationSchema,
} from '../../../../shared/contract';
import type { RevisionPage } from '../../../../shared/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { SelectField, TextField } from '../../../components/ui/field';
import type { SelectOption } from '../../../components/ui/field';
import { countPages, findPage, flattenPages } from '../../../lib/page-tree';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useEditChangeRequestContent } from '../api/edit-change-request-content';
import { editErrorMessage } from '../utils/edit-errors';
import { plural } from '../utils/labels';

interface DialogProps {
  spaceId: string;
  number: number;
  /** The change request's revision the dialog's edit is based on (If-Match). */
  revision: string;
  /** The change request's page tree. */
  pages: RevisionPage[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

const TOP_LEVEL = 'Top level';

/** Pages that may hold `moving` (of `type`): not link pages, not itself or its own pages; groups stay on top. */
function parentOptions(pages: RevisionPage[], type: RevisionPage['type'], moving?: RevisionPage): SelectOption[] {
  const excluded = new Set(moving ? flattenPages([moving]).map(({ page }) => page.id) : []);
  return [
    { value: null, label: TOP_LEVEL },
    ...flattenPages(pages)
      .filter(({ page }) => page.type !== 'link' && !excluded.has(page.id))
      .map(({ page, depth }) => ({
        value: page.id,
        label: `${'\u2003'.repeat(depth)}${page.title || 'Untitled'}`,
        disabled: type === 'group',
      })),
  ];
}

function childrenOf(pages: RevisionPage[], parent: string | null): RevisionPage[] {
  return parent === null ? pages : (findPage(pages, parent)?.pages ?? []);
}

// ---------- New page ----------

const newPageSchema = insertPageOperationSchema
  .pick({ title: true })
  .required()
  .extend({
    kind: z.enum(['document', 'group']),
    parent: z.string().nullable(),
  });

export function NewPageDialog({
  parent = null,
  onCreated,
  ...props
}: DialogProps & { parent?: string | null; onCreated: (page: { id: string; type: 'document' | 'group' }) => void }) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange} title="New page" returnFocusRef={props.returnFocusRef}>
      <NewPageForm {...props} parent={parent} onCreated={onCreated} />
    </Dialog>
  );
}

function NewPageForm({
  spaceId,
  number,
  revision,
  pages,
  parent,
  onCreated,
}: DialogProps & { parent: string | null; onCreated: (page: { id: string; type: 'document' | 'group' }) => void }) {
  const form = useZodForm(newPageSchema, { defaultValues: { title: '', kind: 'document', parent } });
  const kind = useWatch({ control: form.control, name: 'kind' });
  const edit = useEditChangeRequestContent(spaceId, number);
  const onSubmit = form.handleSubmit(async (values) => {
    const into = values.kind === 'group' ? undefined : (values.parent ?? undefined);
    try {
      const result = await edit.mutateAsync({
        revision,
        changes: [{ operation: 'insert_page', type: values.kind, title: values.title, into }],
      });
      const created = result.changes.find((change) => change.type === 'created_page');
      if (created) onCreated({ id: created.page.id, type: values.kind });
    } catch (error) {
      showServerError(form, editErrorMessage(error), ['title']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Add page">
      <TextField control={form.control} name="title" label="Title" max={PAGE_TITLE_MAX} autoComplete="off" required />
      <div className="form-grid">
        <SelectField
          control={form.control}
          name="kind"
          label="Kind"
          options={[
            { value: 'document', label: 'Page', hint: 'A page with a body, which may hold pages of its own.' },
            { value: 'group', label: 'Group', hint: 'A heading that gathers pages, at the top level only.' },
          ]}
        />
        <SelectField
          control={form.control}
          name="parent"
          label="Inside"
          options={parentOptions(pages, 'document')}
          disabled={kind === 'group'}
        />
      </div>
    </DialogForm>
  );
}

// ---------- New reusable content ----------

const newReusableSchema = insertReusableContentOperationSchema.pick({ title: true });

/** Adds a reusable content (a title; its body is written in its editor). */
export function NewReusableContentDialog({
  onCreated,
  ...props
}: Omit<DialogProps, 'pages'> & { onCreated: (id: string) => void }) {
  return (
    <Dialog
      open={props.open}
      onOpenChange={props.onOpenChange}
      title="New reusable content"
      description="Text written once and shown in every page that includes it: a warning, set-up steps, a support note."
      returnFocusRef={props.returnFocusRef}
    >
      <NewReusableContentForm {...props} onCreated={onCreated} />
    </Dialog>
  );
}

function NewReusableContentForm({
  spaceId,
  number,
  revision,
  onCreated,
}: Omit<DialogProps, 'pages'> & { onCreated: (id: string) => void }) {
  const form = useZodForm(newReusableSchema, { defaultValues: { title: '' } });
  const edit = useEditChangeRequestContent(spaceId, number);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await edit.mutateAsync({
        revision,
        changes: [{ operation: 'insert_reusable_content', title: values.title }],
      });
      const created = result.changes.find((change) => change.type === 'created_reusable_content');
      if (created) onCreated(created.reusableContent.id);
    } catch (error) {
      showServerError(form, editErrorMessage(error), ['title']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Add reusable content">
      <TextField control={form.control} name="title" label="Title" max={PAGE_TITLE_MAX} autoComplete="off" required />
    </DialogForm>
  );
}

// ---------- Rename ----------

const renameSchema = updatePageOperationSchema.pick({ title: true }).required();

export function RenamePageDialog({ page, ...props }: DialogProps & { page: RevisionPage }) {
  return (
    <Dialog
      open={props.open}
      onOpenChange={props.onOpenChange}
      title="Rename page"
      returnFocusRef={props.returnFocusRef}
    >
      <RenameForm {...props} page={page} />
    </Dialog>
  );
}

function RenameForm({ spaceId, number, revision, page, onOpenChange }: DialogProps & { page: RevisionPage }) {
  const form = useZodForm(renameSchema, { defaultValues: { title: page.title } });
  const edit = useEditChangeRequestContent(spaceId, number);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async ({ title }) => {
    if (title === page.title) return onOpenChange(false);
    try {
      await edit.mutateAsync({ revision, changes: [{ operation: 'update_page', page: page.id, title }] });
      toast.show(`Page renamed to “${title}”`);
      onOpenChange(false);
    } catch (error) {
      showServerError(form, editErrorMessage(error), ['title']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Rename">
      <TextField control={form.control} name="title" label="Title" max={PAGE_TITLE_MAX} autoComplete="off" required />
    </DialogForm>
  );
}

// ---------- Move ----------

const moveSchema = updatePageOperationSchema.pick({ at: true }).required().extend({ parent: z.string().nullable() });

export function MovePageDialog({
  page,
  parent,
  ...props
}: DialogProps & { page: RevisionPage; parent: string | null }) {
  return (
    <Dialog
      open={props.open}
      onOpenChange={props.onOpenChange}
      title={`Move “${page.title || 'Untitled'}”`}
      returnFocusRef={props.returnFocusRef}
    >
      <MoveForm {...props} page={page} parent={parent} />
    </Dialog>
  );
}

function MoveForm({
  spaceId,
  number,
  revision,
  pages,
  page,
  parent,
  onOpenChange,
}: DialogProps & { page: RevisionPage; parent: string | null }) {
  const currentIndex = childrenOf(pages, parent).findIndex((sibling) => sibling.id === page.id);
  const form = useZodForm(moveSchema, { defaultValues: { parent, at: Math.max(currentIndex, 0) } });
  const chosenParent = useWatch({ control: form.control, name: 'parent' });
  const siblings = childrenOf(pages, chosenParent ?? null).filter((sibling) => sibling.id !== page.id);
  const positions: SelectOption[] = [
    { value: '0', label: 'First' },
    ...siblings.map((sibling, index) => ({
      value: String(index + 1),
      label: `After “${sibling.title || 'Untitled'}”`,
    })),
  ];
  const edit = useEditChangeRequestContent(spaceId, number);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async (values) => {
    const into = values.parent ?? null;
    const at = Math.min(values.at, siblings.length);
    if (into === parent && at === currentIndex) return onOpenChange(false);
    try {
      await edit.mutateAsync({ revision, changes: [{ operation: 'update_page', page: page.id, into, at }] });
      toast.show(`“${page.title || 'Untitled'}” moved`);
      onOpenChange(false);
    } catch (error) {
      showServerError(form, editErrorMessage(error), ['parent', 'at']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Move">
      <SelectField
        control={form.control}
        name="parent"
        label="Inside"
        options={parentOptions(pages, page.type, page)}
      />
      <PositionField form={form} options={positions} />
    </DialogForm>
  );
}

/** The position select works on strings; the form keeps a number. */
function PositionField({
  form,
  options,
}: {
  form: ReturnType<typeof useZodForm<typeof moveSchema>>;
  options: SelectOption[];
}) {
  const at = useWatch({ control: form.control, name: 'at' });
  const value = String(Math.min(at ?? 0, options.length - 1));
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Position
      </label>
      <select
        id={id}
        className="input select"
        value={value}
        onChange={(event) => form.setValue('at', Number(event.target.value), { shouldDirty: true })}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value ?? ''}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

// ---------- Delete ----------

export function DeletePageDialog({
  spaceId,
  number,
  revision,
  page,
  onDeleted,
  ...props
}: DialogProps & { page: RevisionPage; onDeleted?: () => void }) {
  const edit = useEditChangeRequestContent(spaceId, number);
  const toast = useToast();
  const inside = countPages(page.pages ?? []);
  const title = page.title || 'Untitled';
  return (
    <ConfirmDialog
      open={props.open}
      onOpenChange={props.onOpenChange}
      returnFocusRef={props.returnFocusRef}
      title="Delete page?"
      confirmLabel="Delete page"
      action={async () => {
        try {
          await edit.mutateAsync({
            revision,
            changes: [{ operation: 'delete_page', page: page.id }],
            touches: flattenPages(page.pages ?? []).map(({ page: sub }) => sub.id),
          });
        } catch (error) {
          throw editErrorMessage(error);
        }
        toast.show(`“${title}” deleted`);
        onDeleted?.();
      }}
    >
      <p>
        <strong>“{title}”</strong>
        {inside > 0 ? <> and the {plural(inside, 'page')} inside it</> : null} will be deleted in this change request.
      </p>
      <p>The space keeps them until the change request is merged.</p>
    </ConfirmDialog>
  );
}
