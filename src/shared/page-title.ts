/**
 * A page body that opens by repeating its page's title as a `# heading` (imports and GitBook exports write it so),
 * without that heading: the title is shown once, as the page's own heading. Used by published pages and by the
 * console's page views.
 */
export function withoutTitle(markdown: string, title: string): string {
  const first = /^# +(.+?)[ \t]*#*[ \t]*(?:\n|$)/.exec(markdown);
  return first && first[1]!.trim() === title.trim() ? markdown.slice(first[0].length).replace(/^\n+/, '') : markdown;
}
