import { Fragment } from 'react';

/** The words of a query worth marking in results (quotes and operators dropped, two letters at least). */
export function queryWords(query: string): string[] {
  return [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}_]+/u)
        .filter((word) => word.length >= 2),
    ),
  ];
}

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` with the start of each word that begins with a query word marked (as search matches them: "config"
 * marks "configuring"). Text only, never HTML: marks are React elements around plain strings.
 */
export function Highlight({ text, words }: { text: string; words: string[] }) {
  if (words.length === 0 || text === '') return <>{text}</>;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(${words.map(escape).join('|')})`, 'giu');
  const parts = text.split(pattern);
  return (
    <>{parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : <Fragment key={i}>{part}</Fragment>))}</>
  );
}
