/**
 * @-mentions in comment markdown. A mention is a link to `/users/<id>` or `/teams/<id>`, such as
 * `[@Ann Lee](/users/01J…)`: the server notifies whom such links name (server/domain/notifications/mentions.ts, whose
 * `TARGET` this mirrors), the comment forms write them from a picker, and rendered comments show them as chips.
 */

export type MentionKind = 'user' | 'team';

const TARGET = /^\/(users|teams)\/([A-Za-z0-9_-]{1,64})$/;

/** Whom a link's href mentions, if it is a mention's (`/users/<id>`, `/teams/<id>`). */
export function mentionTarget(href: string | undefined): { kind: MentionKind; id: string } | undefined {
  const match = href === undefined ? null : TARGET.exec(href);
  if (!match) return undefined;
  return { kind: match[1] === 'users' ? 'user' : 'team', id: match[2]! };
}

/** Characters of a name being looked up after `@`: letters, digits and the punctuation names and addresses have. */
const NAME_CHARS = "[\\p{L}\\p{M}\\p{N}._'’-]";
/** The longest `@query` looked up: past that, it is not a name being typed. */
export const MENTION_QUERY_MAX = 50;
/** `@` at the start or after whitespace, a letter, then name characters, up to the caret. */
const BEFORE_CARET = new RegExp(`(?:^|\\s)@(\\p{L}${NAME_CHARS}{0,${MENTION_QUERY_MAX - 1}})$`, 'u');
const AFTER_CARET = new RegExp(`^${NAME_CHARS}*`, 'u');

/** The `@query` the caret is in: `text.slice(start, end)` is `@` and `query`. */
export interface MentionQuery {
  start: number;
  end: number;
  query: string;
}

/**
 * The mention being typed at `caret`, if any: `@` at the start of the text or after whitespace, followed by a
 * letter (an address such as `ann@example.com`, or a lone `@`, is not one). The word goes on past the caret when
 * the caret is inside it.
 */
export function mentionQueryAt(text: string, caret: number): MentionQuery | undefined {
  const before = BEFORE_CARET.exec(text.slice(0, caret));
  if (!before) return undefined;
  const typed = before[1]!;
  const rest = AFTER_CARET.exec(text.slice(caret))?.[0] ?? '';
  const query = typed + rest;
  if (query.length > MENTION_QUERY_MAX) return undefined;
  return { start: caret - typed.length - 1, end: caret + rest.length, query };
}

/** Markdown's punctuation that would end or change a link's text: escaped with a backslash. */
const LINK_TEXT_SPECIALS = /[\\[\]*_`<>~&!]/g;

/** The markdown of a mention: `[@Ann Lee](/users/<id>)`, the name on one line with markdown's punctuation escaped. */
export function mentionMarkdown(kind: MentionKind, id: string, name: string): string {
  const text = name.replace(/\s+/g, ' ').trim().replace(LINK_TEXT_SPECIALS, '\\$&');
  return `[@${text}](/${kind === 'user' ? 'users' : 'teams'}/${id})`;
}

/**
 * Replaces the `@query` at `at` with `markdown` and a space (an existing space after it is kept instead of adding
 * one): `insert` replaces `text.slice(at.start, at.end)`, giving `text`, and `caret` is just after the space.
 */
export function insertMention(
  text: string,
  at: Pick<MentionQuery, 'start' | 'end'>,
  markdown: string,
): { text: string; insert: string; caret: number } {
  const rest = text.slice(at.end);
  const insert = /^[ \t]/.test(rest) ? markdown : `${markdown} `;
  return {
    text: text.slice(0, at.start) + insert + rest,
    insert,
    caret: at.start + markdown.length + 1,
  };
}
