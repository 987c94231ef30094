import { useId, useState, type RefObject } from 'react';
import { Dialog, DialogFooter } from '../ui/dialog';
import { Button } from '../ui/button';

/** Somewhere a link may go: a page of the space, or a heading of this page. */
export interface LinkTarget {
  label: string;
  /** What it is (a page's path, "Heading on this page"). */
  detail: string;
  href: string;
}

interface Props {
  open: boolean;
  /** The link being edited, if any. */
  href: string | undefined;
  /** The dialog's title (by default, "Add a link" or "Edit link"). */
  title?: string;
  targets: LinkTarget[];
  onApply: (href: string, label: string) => void;
  /** Removes the link being edited (without it, there is no such button). */
  onRemove?: () => void;
  onClose: () => void;
  /** Where the focus goes back when the dialog closes (the editor's text, not the button that opened it). */
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/** How many targets are listed at once (typing narrows them). */
const SHOWN_MAX = 50;

/**
 * The link of the selection (Ctrl/⌘+K): an address typed (a URL, a path), or a page of the space or a heading of
 * this page picked from the list, which typing filters. Pages are linked by id (`/pages/<id>`), so the link
 * follows the page when it is renamed or moved.
 */
export function LinkDialog({ open, href, title, targets, onApply, onRemove, onClose, returnFocusRef }: Props) {
  const [address, setAddress] = useState(href ?? '');
  const inputId = useId();
  const query = address.trim().toLowerCase();
  const matches = (
    query ? targets.filter((t) => `${t.label} ${t.detail}`.toLowerCase().includes(query)) : targets
  ).slice(0, SHOWN_MAX);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      title={title ?? (href ? 'Edit link' : 'Add a link')}
      size="sm"
      {...(returnFocusRef ? { returnFocusRef } : {})}
    >
      <form
        className="dialog-body link-dialog"
        onSubmit={(event) => {
          event.preventDefault();
          if (address.trim()) onApply(address.trim(), address.trim());
        }}
      >
        <label className="field-label" htmlFor={inputId}>
          Address, or a page or heading to find
        </label>
        <input
          id={inputId}
          className="input"
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          // Enter applies here, its default prevented: the dialog closes on it and gives the editor its focus, which
          // would otherwise take the same Enter as a new line in place of the selection.
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            if (address.trim()) onApply(address.trim(), address.trim());
          }}
          placeholder="https://… or a page's title"
          autoComplete="off"
        />
        {matches.length > 0 ? (
          <ul className="link-dialog-targets" aria-label="Pages and headings">
            {matches.map((target) => (
              <li key={target.href}>
                <button type="button" onClick={() => onApply(target.href, target.label)}>
                  <span className="link-dialog-label">{target.label}</span>
                  <span className="link-dialog-detail">{target.detail}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="link-dialog-none">No page or heading matches: the address is linked as typed.</p>
        )}
        <DialogFooter>
          {href && onRemove && (
            <Button variant="ghost" onClick={onRemove}>
              Remove link
            </Button>
          )}
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={!address.trim()}>
            Apply
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
