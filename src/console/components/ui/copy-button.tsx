import { useEffect, useState } from 'react';
import { Button, type ButtonProps } from './button';
import { CheckIcon, CopyIcon } from './icons';
import { useToast } from './toast';

/** Writes `text` to the clipboard; says "Copied" for a moment, or why it could not. */
export function CopyButton({
  text,
  label = 'Copy',
  done = 'Copied',
  ...props
}: Omit<ButtonProps, 'onClick' | 'children'> & { text: string; label?: string; done?: string }) {
  const [copied, setCopied] = useState(false);
  const toast = useToast();
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast.show('Could not copy: the browser refused access to the clipboard. Select the text and copy it.', 'error');
    }
  };
  return (
    <Button size="sm" {...props} onClick={() => void copy()}>
      {copied ? <CheckIcon /> : <CopyIcon />}
      <span aria-live="polite">{copied ? done : label}</span>
    </Button>
  );
}
