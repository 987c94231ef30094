import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import type { Team, TeamMemberRole } from '../../../../shared/contract';
import { Avatar } from '../../../components/ui/avatar';
import { Button, IconButton } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EditIcon, TrashIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, Loading } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteTeam } from '../api/delete-team';
import { useTeam } from '../api/get-team';
import { useTeamMembers } from '../api/get-team-members';
import { useRemoveTeamMember } from '../api/remove-team-member';
import { useSetTeamMemberRole } from '../api/set-team-member-role';
import { RenameTeamDialog } from '../forms/team-title-dialog';
import { AddTeamMembers } from './add-team-members';

interface Props {
  organizationId: string;
  teamId: string;
  onDeleted: () => Promise<void> | void;
}

/** One team: rename, delete, and its members (add by name or e-mail, owner or member, remove). */
export function TeamView({ organizationId, teamId, onDeleted }: Props) {
  const team = useTeam(organizationId, teamId);
  const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const remove = useDeleteTeam(organizationId, team, { onDeleted });
  const toast = useToast();
  const manage = team.permissions.admin;
  return (
    <div className="section">
      <nav aria-label="Breadcrumb" className="breadcrumbs">
        <ol>
          <li>
            <Link to="/o/$organizationId/settings/teams" params={{ organizationId }}>
              Teams
            </Link>
          </li>
          <li aria-current="page">{team.title}</li>
        </ol>
      </nav>
      <div className="section-header">
        <h2 className="section-title">{team.title}</h2>
        {manage && (
          <div className="page-actions">
            <Button ref={renameButton} onClick={() => setDialog('rename')}>
              <EditIcon /> Rename
            </Button>
            <Button ref={deleteButton} variant="danger" onClick={() => setDialog('delete')}>
              <TrashIcon /> Delete team
            </Button>
          </div>
        )}
      </div>
      {manage && <AddTeamMembers organizationId={organizationId} teamId={teamId} />}
      <TeamMembers organizationId={organizationId} team={team} />
      <RenameTeamDialog
        organizationId={organizationId}
        team={team}
        open={dialog === 'rename'}
        onOpenChange={(open) => setDialog(open ? 'rename' : null)}
        returnFocusRef={renameButton}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={(open) => setDialog(open ? 'delete' : null)}
        returnFocusRef={deleteButton}
        title="Delete team?"
        confirmLabel="Delete team"
        action={async () => {
          await remove.mutateAsync();
          toast.show(`Team “${team.title}” deleted`);
        }}
      >
        <p>
          <strong>“{team.title}”</strong> is deleted, and with it the access it gave to spaces and collections. Its{' '}
          {team.members === 1 ? 'member stays' : `${team.members} members stay`} in the organization.
        </p>
      </ConfirmDialog>
    </div>
  );
}

function TeamMembers({ organizationId, team }: { organizationId: string; team: Team }) {
  const members = useTeamMembers(organizationId, team.id);
  if (members.isPending) return <Loading label="Loading team members…" />;
  if (members.isError) return <ErrorState error={members.error} onRetry={() => void members.refetch()} />;
  if (members.data.length === 0) {
    return (
      <EmptyState title="Nobody in this team yet">
        {team.permissions.admin ? 'Add members by name or e-mail above.' : 'Its owners add members.'}
      </EmptyState>
    );
  }
  return (
    <ul className="panel team-members" aria-label="Team members">
      {members.data.map((entry) => (
        <TeamMemberItem
          key={entry.organization.user.id}
          organizationId={organizationId}
          teamId={team.id}
          user={entry.organization.user}
          role={entry.team.role}
          canManage={team.permissions.admin}
        />
      ))}
    </ul>
  );
}

function TeamMemberItem({
  organizationId,
  teamId,
  user,
  role,
  canManage,
}: {
  organizationId: string;
  teamId: string;
  user: { id: string; displayName: string; email?: string; photoURL?: string };
  role: TeamMemberRole;
  canManage: boolean;
}) {
  const setRole = useSetTeamMemberRole(organizationId, teamId);
  const remove = useRemoveTeamMember(organizationId, teamId);
  const toast = useToast();
  const name = user.displayName || user.email || 'Unnamed member';
  return (
    <li className="team-member">
      <Avatar user={user} />
      <span className="members-person-text">
        <span className="members-name">{name}</span>
        {user.email && <span className="members-email">{user.email}</span>}
      </span>
      {canManage ? (
        <select
          className="input select select-sm"
          aria-label={`Team role of ${name}`}
          value={role}
          disabled={setRole.isPending}
          onChange={(event) =>
            setRole.mutate(
              { userId: user.id, role: event.target.value as TeamMemberRole },
              {
                onSuccess: (_r, { role: next }) =>
                  toast.show(`${name} is now ${next === 'owner' ? 'an owner' : 'a member'} of the team`),
                onError: (error) => toast.show(errorMessage(error), 'error'),
              },
            )
          }
        >
          <option value="member">Member</option>
          <option value="owner">Owner</option>
        </select>
      ) : (
        <span className="badge">{role === 'owner' ? 'Owner' : 'Member'}</span>
      )}
      {canManage && (
        <IconButton
          label={`Remove ${name} from the team`}
          loading={remove.isPending}
          onClick={() =>
            remove.mutate(user.id, {
              onSuccess: () => toast.show(`${name} left the team`),
              onError: (error) => toast.show(errorMessage(error), 'error'),
            })
          }
        >
          <TrashIcon />
        </IconButton>
      )}
    </li>
  );
}
