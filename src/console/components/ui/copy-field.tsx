import { useId, useState } from 'react';
import { Button } from './button';
import { CheckIcon } from './icons';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A value to copy elsewhere (a URL, an id): read-only, selectable, with a "Copy" button that says when done. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <div className="field copy-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="copy-field-row">
        <input
          id={id}
          className="input input-mono"
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button
          aria-label={`Copy ${label}`}
          onClick={async () => {
            setState((await copyText(value)) ? 'copied' : 'failed');
            window.setTimeout(() => setState('idle'), 2000);
          }}
        >
          {state === 'copied' ? (
            <>
              <CheckIcon /> Copied
            </>
          ) : (
            'Copy'
          )}
        </Button>
      </div>
      {state === 'failed' && (
        <p className="field-hint" role="status">
          The browser did not allow copying: select the text and copy it yourself.
        </p>
      )}
    </div>
  );
}
