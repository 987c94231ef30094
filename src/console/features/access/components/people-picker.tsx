import { useState } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { TeamIcon } from '../../../components/ui/icons';
import { Combobox } from '../../../components/ui/combobox';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { suggestionKey, suggestionName, usePeopleSuggestions, type Suggestion } from '../../../lib/people-suggestions';
import '../access.css';

/**
 * Finds members (and, with `teams`, teams) of the organization by what is typed: arrow keys and Enter, or the
 * mouse, pick one.
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
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim());
  const suggestions = usePeopleSuggestions(organizationId, search, teams);
  return (
    <Combobox
      className="access-picker"
      label={label}
      placeholder={placeholder}
      listLabel={teams ? 'Matching members and teams' : 'Matching members'}
      text={text}
      onTextChange={setText}
      options={search ? (suggestions.data ?? []) : []}
      optionKey={suggestionKey}
      renderOption={(option) =>
        option.kind === 'team' ? (
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
        )
      }
      onPick={(picked) => {
        onPick(picked);
        setText('');
      }}
      searching={suggestions.isFetching || search !== text.trim()}
      noMatch={teams ? `No member or team matches “${search}”.` : `No member matches “${search}”.`}
    >
      {suggestions.isError && (
        <p className="field-error" role="alert">
          The suggestions could not be loaded. Check your connection and type again.
        </p>
      )}
    </Combobox>
  );
}
