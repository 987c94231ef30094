import { useState } from 'react';
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
import { looksLikeEmail } from '../../../lib/picker';
import { Combobox } from '../../../components/ui/combobox';

/**
 * Adds an organization member to the team: type a name or an e-mail, pick a suggestion (arrow keys and Enter, or
 * the mouse), or add a typed e-mail as it is.
 */
export function AddTeamMembers({ organizationId, teamId }: { organizationId: string; teamId: string }) {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim());
  const suggestions = useMemberSuggestions(organizationId, search);
  const options = search ? (suggestions.data ?? []) : [];
  const add = useAddTeamMembers(organizationId, teamId);
  const toast = useToast();

  const addUser = (ref: string, name: string) =>
    add.mutate([ref], {
      onSuccess: () => {
        toast.show(`${name} added to the team`);
        setText('');
      },
    });
  const pick = (member: Member) => addUser(member.user.id, member.user.displayName || member.user.email || 'Member');
  const addTyped = () => {
    if (options.length === 1 && options[0]) pick(options[0]);
    else if (looksLikeEmail(text)) addUser(text.trim(), text.trim());
  };

  return (
    <Combobox
      className="card add-members"
      label="Add a member by name or e-mail"
      placeholder="Name or e-mail of a member"
      listLabel="Matching members"
      text={text}
      onTextChange={setText}
      options={options}
      optionKey={(member) => member.user.id}
      renderOption={(member) => (
        <>
          <Avatar user={member.user} size={24} />
          <span className="members-name">{member.user.displayName}</span>
          {member.user.email && <span className="members-email">{member.user.email}</span>}
        </>
      )}
      onPick={pick}
      onEnterText={addTyped}
      searching={suggestions.isFetching || search !== text.trim()}
      noMatch={`No member matches “${search}”. People must join the organization before they join a team.`}
      action={
        <Button
          variant="primary"
          loading={add.isPending}
          disabled={options.length !== 1 && !looksLikeEmail(text)}
          onClick={addTyped}
        >
          <PlusIcon /> Add
        </Button>
      }
    >
      <FormError message={add.isError ? errorMessage(add.error) : undefined} />
    </Combobox>
  );
}
