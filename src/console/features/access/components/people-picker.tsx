import { useId, useState } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { TeamIcon } from '../../../components/ui/icons';
import { moveActive } from '../../../lib/picker';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { usePeopleSuggestions, type Suggestion } from '../api/search-people';

export function suggestionName(s: Suggestion): string {
  return s.kind === 'team' ? s.team.title : s.member.user.displayName || s.member.user.email || 'Unnamed member';
}

function suggestionKey(s: Suggestion): string {
  return s.kind === 'team' ? `team-${s.team.id}` : `user-${s.member.user.id}`;
}

/**
 * A combobox that finds members (and, with `teams`, teams) of the organization by what is typed: arrow keys and
 * Enter, or the mouse, pick one.
 */
export function PeoplePicker({
  organizationId,
  teams,
  label,
  placeholder,
  onPick,
}: {
  organizationId: string;
  teams: boolean;
  label: string;
  placeholder: string;
  onPick: (picked: Suggestion) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const search = useDebouncedValue(text.trim());
  const suggestions = usePeopleSuggestions(organizationId, search, teams);
  const options = open && search ? (suggestions.data ?? []) : [];
  const listId = `${id}-list`;

  const pick = (chosen: Suggestion) => {
    onPick(chosen);
    setText('');
    setOpen(false);
    setActive(-1);
  };

  return (
    <div className="field access-picker">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="combobox">
        <input
          id={id}
          className="input"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={options.length > 0}
          aria-controls={listId}
          aria-activedescendant={active >= 0 && options[active] ? `${listId}-${active}` : undefined}
          autoComplete="off"
          placeholder={placeholder}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onBlur={() => setOpen(false)}
          onFocus={() => setOpen(true)}
          onKeyDown={(event) => {
            if (
              event.key === 'ArrowDown' ||
              event.key === 'ArrowUp' ||
              ((event.key === 'Home' || event.key === 'End') && options.length > 0)
            ) {
              event.preventDefault();
              setOpen(true);
              setActive(moveActive(active, options.length, event.key));
            } else if (event.key === 'Enter') {
              event.preventDefault();
              const chosen = options[active] ?? (options.length === 1 ? options[0] : undefined);
              if (chosen) pick(chosen);
            } else if (event.key === 'Escape') {
              setOpen(false);
              setActive(-1);
            }
          }}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label={teams ? 'Matching members and teams' : 'Matching members'}
          className="combobox-list"
          hidden={options.length === 0}
        >
          {options.map((option, index) => (
            <li
              key={suggestionKey(option)}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={`combobox-option${index === active ? ' active' : ''}`}
              // Before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(option);
              }}
            >
              {option.kind === 'team' ? (
                <>
                  <span className="access-team-icon" aria-hidden="true">
                    <TeamIcon width={16} height={16} />
                  </span>
                  <span className="members-name">{option.team.title}</span>
                  <span className="members-email">
                    Team · {option.team.members} {option.team.members === 1 ? 'member' : 'members'}
                  </span>
                </>
              ) : (
                <>
                  <Avatar user={option.member.user} size={24} />
                  <span className="members-name">{suggestionName(option)}</span>
                  {option.member.user.email && <span className="members-email">{option.member.user.email}</span>}
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
      {open && search && suggestions.data?.length === 0 && !suggestions.isFetching && (
        <p className="field-hint" role="status">
          {teams ? `No member or team matches “${search}”.` : `No member matches “${search}”.`}
        </p>
      )}
      {suggestions.isError && (
        <p className="field-error" role="alert">
          The suggestions could not be loaded. Check your connection and type again.
        </p>
      )}
    </div>
  );
}
