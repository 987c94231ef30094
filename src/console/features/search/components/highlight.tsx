import { Fragment, type ReactNode } from 'react';
import type { TextRange } from '../../../../shared/contract';

/**
 * `text` with the ranges the server says matched (`highlights`) wrapped in `<mark>`. Text only, never HTML: marks
 * are React elements around plain strings. Ranges out of order, overlapping or past the end are tolerated.
 */
export function Highlight({ text, ranges }: { text: string; ranges: readonly TextRange[] }) {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const parts: ReactNode[] = [];
  let at = 0;
  for (const { start, end } of sorted) {
    const from = Math.max(start, at);
    const to = Math.min(end, text.length);
    if (to <= from) continue;
    if (from > at) parts.push(<Fragment key={`t${at}`}>{text.slice(at, from)}</Fragment>);
    parts.push(<mark key={`m${from}`}>{text.slice(from, to)}</mark>);
    at = to;
  }
  if (at < text.length) parts.push(<Fragment key={`t${at}`}>{text.slice(at)}</Fragment>);
  return <>{parts}</>;
}
