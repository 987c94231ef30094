import { useState } from 'react';
import type { ReactNode, RefObject } from 'react';
import { errorMessage } from '../../lib/api-client';
import { Button } from './button';
import type { ButtonVariant } from './button';
import { Dialog, DialogClose, DialogFooter } from './dialog';
import { FormError } from './states';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
  title: string;
  confirmLabel: string;
  /** `danger` for what cannot be undone, `primary` for a weighty but safe step (a merge). */
  variant?: ButtonVariant;
  /** Runs on confirm; the dialog stays open, with the error, if it throws. */
  action: () => Promise<unknown>;
  children: ReactNode;
}

/** Asks before an action that is destructive or hard to undo; focus starts on "Cancel". */
export function ConfirmDialog({
  open,
  onOpenChange,
  returnFocusRef,
  title,
  confirmLabel,
  variant = 'danger',
  action,
  children,
}: ConfirmDialogProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const change = (next: boolean) => {
    if (pending) return;
    setError(undefined);
    onOpenChange(next);
  };
  const confirm = async () => {
    setPending(true);
    setError(undefined);
    try {
      await action();
      setPending(false);
      onOpenChange(false);
    } catch (failure) {
      setPending(false);
      setError(errorMessage(failure));
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={change}
      title={title}
      returnFocusRef={returnFocusRef}
      role="alertdialog"
      size="sm"
    >
      <div className="dialog-body">{children}</div>
      <FormError message={error} />
      <DialogFooter>
        <DialogClose asChild>
          <Button data-autofocus disabled={pending}>
            Cancel
          </Button>
        </DialogClose>
        <Button variant={variant} loading={pending} onClick={() => void confirm()}>
          {confirmLabel}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
