import { useId, useState } from 'react';
import type { KeyboardEvent, SyntheticEvent } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { TeamIcon } from '../../../components/ui/icons';
import { insertMention, mentionMarkdown, mentionQueryAt, type MentionQuery } from '../../../lib/mentions';
import { suggestionKey, suggestionName, usePeopleSuggestions, type Suggestion } from '../../../lib/people-suggestions';
import { moveActive } from '../../../lib/picker';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { plural } from '../utils/labels';
import '../change-requests.css';

/**
 * What the server would answer for `query` among `suggestions` (a part of the name or address, any case), members
 * first (whom one mentions most), then teams, each kind in the server's order. The answer shown while the next
 * search runs is the previous query's: filtered so, it never offers someone the text typed no longer matches (Enter
 * right after a letter picks a match, not the first of the previous list).
 */
function matching(suggestions: readonly Suggestion[], query: string): Suggestion[] {
  const part = query.toLowerCase();
  const matches = (s: Suggestion) =>
    (s.kind === 'team' ? [s.team.title] : [s.member.user.displayName, s.member.user.email ?? '']).some((text) =>
      text.toLowerCase().includes(part),
    );
  const found = suggestions.filter(matches);
  return [...found.filter((s) => s.kind === 'user'), ...found.filter((s) => s.kind === 'team')];
}

/** Brings the list into view as it opens (under a textarea low on the screen, a phone's above all). */
function reveal(list: HTMLElement | null) {
  list?.scrollIntoView({ block: 'nearest' });
}

function sameQuery(a: MentionQuery | undefined, b: MentionQuery | undefined): boolean {
  return a?.start === b?.start && a?.end === b?.end && a?.query === b?.query;
}

/**
 * The @-mention picker of a markdown textarea: typing `@` and letters (at the start or after whitespace) lists the
 * organization's members and teams that match; Up and Down move, Enter or Tab (or a click) writes the mention's
 * markdown in place of `@query` with a space after it, Escape closes the list.
 *
 * While the list is open the textarea is a combobox (ARIA's pattern: `aria-expanded`, `aria-controls`,
 * `aria-activedescendant`, the list a listbox), as GitHub's comment boxes do; the rest of the time it stays the plain
 * textbox its form's users and tests know. The number of suggestions is also said in a polite status.
 *
 * `textarea` finds the element (from event handlers only); `onText` sets the field's value where the browser
 * cannot insert the text itself (keeping the undo history, as typing does).
 */
export function useMentionPicker({
  organizationId,
  textarea,
  onText,
}: {
  organizationId: string;
  textarea: () => HTMLTextAreaElement | null;
  onText: (text: string) => void;
}) {
  const listId = `${useId()}-mentions`;
  const optionId = (index: number) => `${listId}-${index}`;
  const [query, setQuery] = useState<MentionQuery>();
  /** Where the `@` is of the mention whose list Escape closed: it stays closed while that word is typed. */
  const [dismissed, setDismissed] = useState<number>();
  const [active, setActive] = useState(0);
  const search = useDebouncedValue(query?.query ?? '', 150);
  const suggestions = usePeopleSuggestions(organizationId, search, true);
  const options = query && search && query.start !== dismissed ? matching(suggestions.data ?? [], query.query) : [];
  const open = options.length > 0;
  const current = Math.min(active, options.length - 1);

  /** Follows the caret: the `@query` it is in, if any (only where nothing is selected). */
  const track = (element: HTMLTextAreaElement) => {
    const { value, selectionStart, selectionEnd } = element;
    const next = selectionStart === selectionEnd ? mentionQueryAt(value, selectionStart) : undefined;
    if (sameQuery(next, query)) return;
    setQuery(next);
    setActive(0);
    if (!next) setDismissed(undefined);
  };

  const close = () => {
    setQuery(undefined);
    setActive(0);
  };

  const pick = (option: Suggestion) => {
    const element = textarea();
    if (!element) return;
    const at = mentionQueryAt(element.value, element.selectionStart) ?? query;
    if (!at) return;
    const markdown =
      option.kind === 'user'
        ? mentionMarkdown('user', option.member.user.id, suggestionName(option))
        : mentionMarkdown('team', option.team.id, option.team.title);
    const edit = insertMention(element.value, at, markdown);
    element.focus();
    element.setSelectionRange(at.start, at.end);
    // Inserted as typing would be, so that Ctrl+Z takes it back (execCommand, deprecated, is still the only way to
    // keep the undo history); the field hears it through its input event.
    if (document.execCommand('insertText', false, edit.insert)) {
      element.setSelectionRange(edit.caret, edit.caret);
    } else {
      onText(edit.text);
      // The controlled value is written on the next render, which puts the caret at the end.
      requestAnimationFrame(() => element.setSelectionRange(edit.caret, edit.caret));
    }
    close();
  };

  /** Handles the picker's keys while the list is open; says whether it did. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !query || event.nativeEvent.isComposing) return false;
    const modified = event.altKey || event.ctrlKey || event.metaKey || event.shiftKey;
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && !modified) {
      event.preventDefault();
      const next = moveActive(current, options.length, event.key);
      setActive(next);
      document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
      return true;
    }
    if ((event.key === 'Enter' || event.key === 'Tab') && !modified) {
      event.preventDefault();
      const option = options[current];
      if (option) pick(option);
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setDismissed(query.start);
      return true;
    }
    return false;
  };

  const follow = (event: SyntheticEvent<HTMLTextAreaElement>) => track(event.currentTarget);

  const textareaProps = {
    onInput: follow,
    onSelect: follow,
    onFocus: follow,
    ...(open
      ? {
          role: 'combobox',
          'aria-expanded': true,
          'aria-controls': listId,
          'aria-autocomplete': 'list' as const,
          'aria-activedescendant': optionId(current),
        }
      : {}),
  };

  const list = (
    <>
      {open && (
        <ul ref={reveal} id={listId} role="listbox" aria-label="People to mention" className="mention-list">
          {options.map((option, index) => (
            <li
              key={suggestionKey(option)}
              id={optionId(index)}
              role="option"
              aria-selected={index === current}
              className={`mention-option${index === current ? ' active' : ''}`}
              // Before the textarea's blur: the focus and the caret stay where the mention goes.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(option);
              }}
            >
              {option.kind === 'user' ? (
                <>
                  <Avatar user={option.member.user} size={22} />
                  <span className="mention-option-name">{suggestionName(option)}</span>
                  {option.member.user.email && option.member.user.displayName && (
                    <span className="mention-option-detail">{option.member.user.email}</span>
                  )}
                </>
              ) : (
                <>
                  <span className="mention-option-icon" aria-hidden="true">
                    <TeamIcon width={14} height={14} />
                  </span>
                  <span className="mention-option-name">{option.team.title}</span>
                  <span className="mention-option-detail">Team · {plural(option.team.members, 'member')}</span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <span className="visually-hidden" role="status">
        {open ? `${plural(options.length, 'suggestion')} to mention: Up and Down choose, Enter inserts.` : ''}
      </span>
    </>
  );

  return { textareaProps, onKeyDown, list, close };
}
