import { useEffect, useId, useRef, useState } from 'react';

const DEBOUNCE_MS = 300;

/**
 * A search box whose value lives elsewhere (the URL): what is typed is handed over once typing pauses (or on Enter),
 * and a value changed from outside (back button, a link) shows up in the box.
 */
export function SearchInput({
  label,
  placeholder,
  value,
  onChange,
  maxLength,
}: {
  label: string;
  placeholder?: string;
  value?: string;
  onChange: (value: string | undefined) => void;
  maxLength?: number;
}) {
  const id = useId();
  const [text, setText] = useState(value ?? '');
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if ((text.trim() || undefined) !== value) setText(value ?? '');
  }
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  useEffect(() => {
    const next = text.trim() || undefined;
    if (next === value) return;
    const timer = window.setTimeout(() => onChangeRef.current(next), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, value]);
  return (
    <div className="search-input">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        className="input"
        type="search"
        placeholder={placeholder}
        value={text}
        maxLength={maxLength}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onChange(text.trim() || undefined);
        }}
      />
    </div>
  );
}
