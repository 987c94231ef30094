import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { moveActive } from '../../lib/picker';

export interface ComboboxProps<T> {
  label: string;
  placeholder: string;
  /** The list's accessible name ("Matching members"). */
  listLabel: string;
  /** What is typed; the parent finds the options for it (usually debounced). */
  text: string;
  onTextChange: (text: string) => void;
  /** The options matching `text`, shown while the input has focus. */
  options: readonly T[];
  optionKey: (option: T) => string;
  renderOption: (option: T) => ReactNode;
  onPick: (option: T) => void;
  /** Enter when no option is chosen and there is not exactly one: e.g. add the typed e-mail address as it is. */
  onEnterText?: (text: string) => void;
  /** Said while focused when the search is done and nothing matches. */
  noMatch?: ReactNode;
  /** The search is still running: "no match" waits. */
  searching?: boolean;
  /** Beside the input (an "Add" button). */
  action?: ReactNode;
  className?: string;
  children?: ReactNode;
}

/**
 * A text input with a list of suggestions (the ARIA combobox pattern): arrow keys, Home and End move through
 * the list, Enter picks (the active option, else the only one), Escape closes it; the mouse picks too.
 */
export function Combobox<T>({
  label,
  placeholder,
  listLabel,
  text,
  onTextChange,
  options,
  optionKey,
  renderOption,
  onPick,
  onEnterText,
  noMatch,
  searching,
  action,
  className,
  children,
}: ComboboxProps<T>) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const shown = open && text.trim() ? options : [];

  const pick = (option: T) => {
    onPick(option);
    setActive(-1);
  };

  const input = (
    <input
      id={id}
      className="input"
      role="combobox"
      aria-autocomplete="list"
      aria-expanded={shown.length > 0}
      aria-controls={listId}
      aria-activedescendant={active >= 0 && shown[active] ? `${listId}-${active}` : undefined}
      autoComplete="off"
      placeholder={placeholder}
      value={text}
      onChange={(event) => {
        onTextChange(event.target.value);
        setOpen(true);
        setActive(-1);
      }}
      onBlur={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onKeyDown={(event) => {
        if (
          event.key === 'ArrowDown' ||
          event.key === 'ArrowUp' ||
          ((event.key === 'Home' || event.key === 'End') && shown.length > 0)
        ) {
          event.preventDefault();
          setOpen(true);
          setActive(moveActive(active, shown.length, event.key));
        } else if (event.key === 'Enter') {
          event.preventDefault();
          const chosen = shown[active] ?? (shown.length === 1 ? shown[0] : undefined);
          if (chosen !== undefined) pick(chosen);
          else onEnterText?.(text);
        } else if (event.key === 'Escape') {
          setOpen(false);
          setActive(-1);
        }
      }}
    />
  );

  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="combobox">
        {action ? (
          <div className="inline-form">
            {input}
            {action}
          </div>
        ) : (
          input
        )}
        <ul id={listId} role="listbox" aria-label={listLabel} className="combobox-list" hidden={shown.length === 0}>
          {shown.map((option, index) => (
            <li
              key={optionKey(option)}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={`combobox-option${index === active ? ' active' : ''}`}
              // Before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(option);
              }}
            >
              {renderOption(option)}
            </li>
          ))}
        </ul>
      </div>
      {open && text.trim() && options.length === 0 && !searching && noMatch && (
        <p className="field-hint" role="status">
          {noMatch}
        </p>
      )}
      {children}
    </div>
  );
}
