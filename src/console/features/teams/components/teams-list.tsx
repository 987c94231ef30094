import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { TEAM_TITLE_MAX } from '../../../../shared/contract';
import type { Team } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { PlusIcon, TeamIcon } from '../../../components/ui/icons';
import { SearchInput } from '../../../components/ui/search-input';
import { EmptyState, ErrorState, Loading, Spinner } from '../../../components/ui/states';
import { useTeams } from '../api/get-teams';
import { CreateTeamDialog } from '../forms/team-title-dialog';
import '../teams.css';

interface Props {
  organizationId: string;
  /** The title filter, as the URL holds it. */
  title?: string;
  onTitleChange: (title: string | undefined) => void;
  /** Org admins create teams. */
  canCreate: boolean;
  onCreated: (team: Team) => void;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The organization's teams, filtered by title; each opens its page. */
export function TeamsList({ organizationId, title, onTitleChange, canCreate, onCreated }: Props) {
  const teams = useTeams(organizationId, title);
  const [creating, setCreating] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <div className="section">
      <div className="members-toolbar">
        <SearchInput
          label="Filter teams by title"
          placeholder="Filter by title"
          value={title}
          maxLength={TEAM_TITLE_MAX}
          onChange={onTitleChange}
        />
        {teams.isFetching && !teams.isPending && <Spinner />}
        <span className="toolbar-spacer" />
        {canCreate && (
          <Button ref={button} variant="primary" onClick={() => setCreating(true)}>
            <PlusIcon /> New team
          </Button>
        )}
      </div>
      {teams.isPending ? (
        <Loading label="Loading teams…" />
      ) : teams.isError ? (
        <ErrorState error={teams.error} onRetry={() => void teams.refetch()} />
      ) : teams.data.length === 0 ? (
        <EmptyState
          icon={<TeamIcon width={28} height={28} />}
          title={title ? 'No team matches' : 'No teams yet'}
          action={title && <Button onClick={() => onTitleChange(undefined)}>Clear filter</Button>}
        >
          {title
            ? 'Try another title.'
            : 'Teams group members, so spaces and collections can be shared with all of them at once.'}
        </EmptyState>
      ) : (
        <ul className="panel team-list" aria-label="Teams">
          {teams.data.map((team) => (
            <li key={team.id} className="team-item">
              <TeamIcon />
              <Link
                to="/o/$organizationId/settings/teams/$teamId"
                params={{ organizationId, teamId: team.id }}
                className="team-title"
              >
                {team.title}
              </Link>
              <span className="team-meta">
                {plural(team.members, 'member')} · {plural(team.spaces, 'space')}
              </span>
            </li>
          ))}
        </ul>
      )}
      {canCreate && (
        <CreateTeamDialog
          organizationId={organizationId}
          open={creating}
          onOpenChange={setCreating}
          returnFocusRef={button}
          onCreated={(team) => {
            setCreating(false);
            onCreated(team);
          }}
        />
      )}
    </div>
  );
}
