import { useId, useState } from 'react';
import type { Member } from '../../../../shared/contract';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { PlusIcon } from '../../../components/ui/icons';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useAddTeamMembers } from '../api/add-team-members';
import { useMemberSuggestions } from '../api/search-organization-members';
import { looksLikeEmail, moveActive } from '../../../lib/picker';

/**
 * Adds an organization member to the team: type a name or an e-mail, pick a suggestion (arrow keys and Enter, or
 * the mouse), or add a typed e-mail as it is.
 */
export function AddTeamMembers({ organizationId, teamId }: { organizationId: string; teamId: string }) {
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const search = useDebouncedValue(text.trim());
  const suggestions = useMemberSuggestions(organizationId, search);
  const options = open && search ? (suggestions.data ?? []) : [];
  const add = useAddTeamMembers(organizationId, teamId);
  const toast = useToast();

  const addUser = (ref: string, name: string) =>
    add.mutate([ref], {
      onSuccess: () => {
        toast.show(`${name} added to the team`);
        setText('');
        setOpen(false);
        setActive(-1);
      },
    });
  const pick = (member: Member) => addUser(member.user.id, member.user.displayName || member.user.email || 'Member');
  const submitTyped = () => {
    const chosen = options[active];
    if (chosen) pick(chosen);
    else if (options.length === 1 && options[0]) pick(options[0]);
    else if (looksLikeEmail(text)) addUser(text.trim(), text.trim());
  };
  const listId = `${id}-list`;
  const canSubmit = options.length === 1 || active >= 0 || looksLikeEmail(text);

  return (
    <div className="card add-members">
      <label className="field-label" htmlFor={id}>
        Add a member by name or e-mail
      </label>
      <div className="combobox">
        <div className="inline-form">
          <input
            id={id}
            className="input"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={options.length > 0}
            aria-controls={listId}
            aria-activedescendant={active >= 0 && options[active] ? `${listId}-${active}` : undefined}
            autoComplete="off"
            placeholder="Name or e-mail of a member"
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
                submitTyped();
              } else if (event.key === 'Escape') {
                setOpen(false);
                setActive(-1);
              }
            }}
          />
          <Button variant="primary" loading={add.isPending} disabled={!canSubmit} onClick={submitTyped}>
            <PlusIcon /> Add
          </Button>
        </div>
        <ul
          id={listId}
          role="listbox"
          aria-label="Matching members"
          className="combobox-list"
          hidden={options.length === 0}
        >
          {options.map((member, index) => (
            <li
              key={member.user.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={`combobox-option${index === active ? ' active' : ''}`}
              // Before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(member);
              }}
            >
              <Avatar user={member.user} size={24} />
              <span className="members-name">{member.user.displayName}</span>
              {member.user.email && <span className="members-email">{member.user.email}</span>}
            </li>
          ))}
        </ul>
      </div>
      {open && search && suggestions.data?.length === 0 && !suggestions.isFetching && (
        <p className="field-hint" role="status">
          No member matches “{search}”. People must join the organization before they join a team.
        </p>
      )}
      <FormError message={add.isError ? errorMessage(add.error) : undefined} />
    </div>
  );
}
