import { useId } from 'react';
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import { useController } from 'react-hook-form';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';

interface FieldFrameProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** Current length and limit, shown as "12/50"; over the limit it turns red. */
  counter?: { length: number; max: number };
  children: ReactNode;
}

export function fieldDescribedBy(id: string, { hint, error, counter }: Partial<FieldFrameProps>): string | undefined {
  const ids = [hint ? `${id}-hint` : '', counter ? `${id}-counter` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** Label, control, hint, counter and error of one form field, tied together for assistive technology. */
export function FieldFrame({ id, label, hint, error, counter, children }: FieldFrameProps) {
  const over = counter ? counter.length > counter.max : false;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <div className="field-top">
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
        {counter && (
          <span id={`${id}-counter`} className={`field-counter${over ? ' field-counter-over' : ''}`}>
            <span className="visually-hidden">Characters used: </span>
            {counter.length}/{counter.max}
          </span>
        )}
      </div>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

type ControlledProps<T extends FieldValues, O extends FieldValues> = {
  control: Control<T, unknown, O>;
  name: FieldPath<T>;
  label: ReactNode;
  hint?: ReactNode;
  /** The contract's limit for this field: shows a live "n/max" counter. */
  max?: number;
};

export function TextField<T extends FieldValues, O extends FieldValues>({
  control,
  name,
  label,
  hint,
  max,
  ...input
}: ControlledProps<T, O> &
  Omit<
    InputHTMLAttributes<HTMLInputElement>,
    'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'maxLength'
  >) {
  const id = useId();
  const {
    field: { ref: inputRef, ...field },
    fieldState,
  } = useController({ control, name });
  const value = typeof field.value === 'string' ? field.value : field.value == null ? '' : String(field.value);
  const error = fieldState.error?.message;
  const counter = max === undefined ? undefined : { length: value.length, max };
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} counter={counter}>
      <input
        id={id}
        className="input"
        type="text"
        {...input}
        name={field.name}
        ref={inputRef}
        value={value}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        disabled={input.disabled || field.disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, { hint, error, counter })}
      />
    </FieldFrame>
  );
}

export function TextareaField<T extends FieldValues, O extends FieldValues>({
  control,
  name,
  label,
  hint,
  max,
  ...textarea
}: ControlledProps<T, O> &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur'>) {
  const id = useId();
  const {
    field: { ref: inputRef, ...field },
    fieldState,
  } = useController({ control, name });
  const value = typeof field.value === 'string' ? field.value : '';
  const error = fieldState.error?.message;
  const counter = max === undefined ? undefined : { length: value.length, max };
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} counter={counter}>
      <textarea
        id={id}
        className="input textarea"
        rows={3}
        {...textarea}
        name={field.name}
        ref={inputRef}
        value={value}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, { hint, error, counter })}
      />
    </FieldFrame>
  );
}

export interface SelectOption {
  /** `null` is a real value too (e.g. "organization root" as a move destination). */
  value: string | null;
  label: string;
  disabled?: boolean;
  /** Said under the select while this option is chosen. */
  hint?: string;
}

const NULL_OPTION = '';

export function SelectField<T extends FieldValues, O extends FieldValues>({
  control,
  name,
  label,
  hint,
  options,
  disabled,
  autoFocus,
}: Omit<ControlledProps<T, O>, 'max'> & { options: SelectOption[]; disabled?: boolean; autoFocus?: boolean }) {
  const id = useId();
  const {
    field: { ref: inputRef, ...field },
    fieldState,
  } = useController({ control, name });
  const current = field.value === null || field.value === undefined ? NULL_OPTION : String(field.value);
  const selected = options.find((option) => (option.value ?? NULL_OPTION) === current);
  const shownHint = selected?.hint ?? hint;
  const error = fieldState.error?.message;
  return (
    <FieldFrame id={id} label={label} hint={shownHint} error={error}>
      <select
        id={id}
        className="input select"
        name={field.name}
        ref={inputRef}
        value={current}
        autoFocus={autoFocus}
        disabled={disabled || field.disabled}
        onChange={(event) => {
          const option = options.find((o) => (o.value ?? NULL_OPTION) === event.target.value);
          field.onChange(option ? option.value : event.target.value);
        }}
        onBlur={field.onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, { hint: shownHint, error })}
      >
        {options.map((option) => (
          <option key={option.value ?? NULL_OPTION} value={option.value ?? NULL_OPTION} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** One checkbox bound to a boolean field (`name` may be nested, e.g. `adaptiveContent.enabled`). */
export function CheckboxField<T extends FieldValues, O extends FieldValues>({
  control,
  name,
  label,
  hint,
  disabled,
}: Omit<ControlledProps<T, O>, 'max'> & { disabled?: boolean }) {
  const id = useId();
  const {
    field: { ref: inputRef, ...field },
    fieldState,
  } = useController({ control, name });
  const error = fieldState.error?.message;
  return (
    <div className={`field field-checkbox${error ? ' field-invalid' : ''}`}>
      <div className="checkbox-row">
        <input
          id={id}
          type="checkbox"
          className="checkbox"
          name={field.name}
          ref={inputRef}
          checked={field.value === true}
          disabled={disabled || field.disabled}
          onChange={(event) => field.onChange(event.target.checked)}
          onBlur={field.onBlur}
          aria-invalid={error ? true : undefined}
          aria-describedby={fieldDescribedBy(id, { hint, error })}
        />
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
      </div>
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Checkboxes choosing some of `options`, bound to an array of their values kept in the options' order (the order
 * matters where the choice becomes a list, e.g. the spaces of a new site).
 */
export function CheckboxGroupField<T extends FieldValues, O extends FieldValues>({
  control,
  name,
  label,
  hint,
  options,
  empty,
}: Omit<ControlledProps<T, O>, 'max'> & {
  options: Array<{ value: string; label: ReactNode }>;
  /** Said instead of the checkboxes when there is nothing to choose. */
  empty?: ReactNode;
}) {
  const id = useId();
  const {
    field: { ref: _ref, ...field },
    fieldState,
  } = useController({ control, name });
  const chosen = new Set<string>(Array.isArray(field.value) ? (field.value as string[]) : []);
  const error = fieldState.error?.message ?? fieldState.error?.root?.message;
  const toggle = (value: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(value);
    else next.delete(value);
    field.onChange(options.map((o) => o.value).filter((v) => next.has(v)));
  };
  return (
    <fieldset
      className={`field checkbox-group${error ? ' field-invalid' : ''}`}
      aria-describedby={fieldDescribedBy(id, { hint, error })}
    >
      <legend className="field-label">{label}</legend>
      {options.length === 0 ? (
        <p className="field-hint">{empty}</p>
      ) : (
        <ul className="checkbox-list">
          {options.map((option) => (
            <li key={option.value}>
              <label className="checkbox-row">
                <input
                  type="checkbox"
                  className="checkbox"
                  checked={chosen.has(option.value)}
                  onChange={(event) => toggle(option.value, event.target.checked)}
                  onBlur={field.onBlur}
                />
                <span>{option.label}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
