import * as RadixDialog from '@radix-ui/react-dialog';
import type { BaseSyntheticEvent, ReactNode, RefObject } from 'react';
import { Button } from './button';
import { CloseIcon } from './icons';
import { FormError } from './states';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /** Where focus goes back when the dialog closes (e.g. the menu button that opened it). */
  returnFocusRef?: RefObject<HTMLElement | null>;
  size?: 'sm' | 'md';
  /** `alertdialog` for confirmations of destructive actions. */
  role?: 'dialog' | 'alertdialog';
}

/** A modal dialog: focus is trapped inside, Escape and the close button dismiss it. */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  returnFocusRef,
  size = 'md',
  role = 'dialog',
}: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={`dialog dialog-${size}`}
          role={role}
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={(event) => {
            // The first field of a form, else the element marked data-autofocus (e.g. "Cancel" of a confirmation).
            const content = event.currentTarget as HTMLElement | null;
            const first = content?.querySelector<HTMLElement>(
              'input:not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled), [data-autofocus]',
            );
            if (first) {
              event.preventDefault();
              first.focus();
            }
          }}
          onCloseAutoFocus={(event) => {
            if (returnFocusRef?.current) {
              event.preventDefault();
              returnFocusRef.current.focus();
            }
          }}
        >
          <div className="dialog-header">
            <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
            <RadixDialog.Close className="btn btn-ghost btn-sm btn-icon" aria-label="Close">
              <CloseIcon />
            </RadixDialog.Close>
          </div>
          {description && (
            <RadixDialog.Description className="dialog-description">{description}</RadixDialog.Description>
          )}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

export const DialogClose = RadixDialog.Close;

export function DialogFooter({ children }: { children: ReactNode }) {
  return <div className="dialog-footer">{children}</div>;
}

/** What a dialog form needs to read of a react-hook-form: the server's form-wide error and whether it submits. */
interface SubmittingForm {
  formState: { isSubmitting: boolean; errors: { root?: Record<string, { message?: string } | undefined> } };
}

export interface DialogFormProps {
  form: SubmittingForm;
  onSubmit: (event?: BaseSyntheticEvent) => unknown;
  /** The submit button's words ("Create team", "Rename"). */
  submit: ReactNode;
  /** `danger` for a form that deletes or removes. */
  variant?: 'primary' | 'danger';
  /** Submit stays disabled (e.g. until a confirmation is typed). */
  submitDisabled?: boolean;
  /** The dismiss button's words: "Cancel", or "Close" once the work goes on without the dialog. */
  cancel?: ReactNode;
  className?: string;
  children: ReactNode;
}

/**
 * The form of a dialog: the form-wide error the server gave, the fields, then Cancel and the submit button, which
 * shows the request in flight. Every dialog that edits something is this scaffold around its own fields.
 */
export function DialogForm({
  form,
  onSubmit,
  submit,
  variant = 'primary',
  submitDisabled,
  cancel = 'Cancel',
  className,
  children,
}: DialogFormProps) {
  const submitting = form.formState.isSubmitting;
  return (
    <form
      className={className ? `form ${className}` : 'form'}
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      aria-busy={submitting || undefined}
    >
      <FormError message={form.formState.errors.root?.server?.message} />
      {children}
      <DialogFooter>
        <DialogClose asChild>
          <Button>{cancel}</Button>
        </DialogClose>
        <Button type="submit" variant={variant} loading={submitting} disabled={submitDisabled}>
          {submit}
        </Button>
      </DialogFooter>
    </form>
  );
}
