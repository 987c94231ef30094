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
