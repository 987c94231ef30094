/**
 * LIKE patterns of text given by callers, its own wildcards (`%`, `_`) and the escape character escaped: they go with
 * `escape '\'`, which both databases understand.
 */
function escaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern matching `text` anywhere. */
export function containsPattern(text: string): string {
  return `%${escaped(text)}%`;
}

/** A LIKE pattern matching what starts with `text`. */
export function prefixPattern(text: string): string {
  return `${escaped(text)}%`;
}
