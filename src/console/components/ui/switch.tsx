import type { ButtonHTMLAttributes, Ref } from 'react';

/**
 * An on/off switch (`role="switch"`): a button, so Space and Enter flip it; name it with `aria-labelledby` or
 * `aria-label`. It reports the wish to flip (`onCheckedChange`); the caller may ask first, then set `checked`.
 */
export function Switch({
  checked,
  onCheckedChange,
  busy,
  disabled,
  ref,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'role' | 'type'> & {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** A change is on its way to the server. */
  busy?: boolean;
  ref?: Ref<HTMLButtonElement>;
}) {
  return (
    <button
      {...props}
      ref={ref}
      type="button"
      role="switch"
      aria-checked={checked}
      aria-busy={busy || undefined}
      disabled={disabled || busy}
      className={`switch${checked ? ' switch-on' : ''}`}
      onClick={() => onCheckedChange(!checked)}
    >
      <span className="switch-thumb" aria-hidden="true" />
    </button>
  );
}
