import { Link } from '@tanstack/react-router';
import { Avatar } from '../../../components/ui/avatar';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorState, Loading } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { roleLabel } from '../../../lib/roles';
import { useMember } from '../api/get-member';
import { useMemberSpaces } from '../api/get-member-spaces';
import { useMemberTeams } from '../api/get-member-teams';
import '../members.css';

interface Props {
  organizationId: string;
  userId: string;
  onClose: () => void;
}

/** One member: who they are, their role, the spaces they reach (with their level there) and their teams. */
export function MemberDialog({ organizationId, userId, onClose }: Props) {
  const member = useMember(organizationId, userId);
  const name = member.data ? member.data.user.displayName || member.data.user.email || 'Member' : 'Member';
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={name}>
      {member.isPending ? (
        <Loading />
      ) : member.isError ? (
        <ErrorState error={member.error} onRetry={() => void member.refetch()} />
      ) : (
        <div className="member-detail">
          <div className="member-detail-head">
            <Avatar user={member.data.user} size={44} />
            <dl className="member-facts">
              {member.data.user.email && (
                <>
                  <dt>E-mail</dt>
                  <dd>{member.data.user.email}</dd>
                </>
              )}
              <dt>Role</dt>
              <dd>{roleLabel(member.data.role)}</dd>
              <dt>Joined</dt>
              <dd>
                <RelativeTime value={member.data.joinedAt} />
              </dd>
              <dt>Last seen</dt>
              <dd>{member.data.lastSeenAt ? <RelativeTime value={member.data.lastSeenAt} /> : 'Never'}</dd>
              {member.data.sso && (
                <>
                  <dt>Sign-in</dt>
                  <dd>Single sign-on</dd>
                </>
              )}
            </dl>
          </div>
          <MemberSpaces organizationId={organizationId} userId={userId} />
          <MemberTeams organizationId={organizationId} userId={userId} />
        </div>
      )}
    </Dialog>
  );
}

function MemberSpaces({ organizationId, userId }: { organizationId: string; userId: string }) {
  const spaces = useMemberSpaces(organizationId, userId);
  return (
    <section className="member-section" aria-labelledby={`member-spaces-${userId}`}>
      <h3 id={`member-spaces-${userId}`} className="member-section-title">
        Spaces {spaces.data && <span className="section-count">{spaces.data.length}</span>}
      </h3>
      {spaces.isPending ? (
        <Loading label="Loading spaces…" />
      ) : spaces.isError ? (
        <ErrorState error={spaces.error} onRetry={() => void spaces.refetch()} />
      ) : spaces.data.length === 0 ? (
        <p className="section-text">No space.</p>
      ) : (
        <ul className="member-list" aria-label="Spaces of this member">
          {spaces.data.map(({ space, permission }) => (
            <li key={space.id}>
              <Link to="/o/$organizationId/spaces/$spaceId" params={{ organizationId, spaceId: space.id }}>
                {space.emoji && <span aria-hidden="true">{space.emoji} </span>}
                {space.title || 'Untitled'}
              </Link>
              <span className="badge">{roleLabel(permission)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function MemberTeams({ organizationId, userId }: { organizationId: string; userId: string }) {
  const teams = useMemberTeams(organizationId, userId);
  return (
    <section className="member-section" aria-labelledby={`member-teams-${userId}`}>
      <h3 id={`member-teams-${userId}`} className="member-section-title">
        Teams {teams.data && <span className="section-count">{teams.data.length}</span>}
      </h3>
      {teams.isPending ? (
        <Loading label="Loading teams…" />
      ) : teams.isError ? (
        <ErrorState error={teams.error} onRetry={() => void teams.refetch()} />
      ) : teams.data.length === 0 ? (
        <p className="section-text">In no team.</p>
      ) : (
        <ul className="member-list" aria-label="Teams of this member">
          {teams.data.map(({ team, member }) => (
            <li key={team.id}>
              <Link to="/o/$organizationId/settings/teams/$teamId" params={{ organizationId, teamId: team.id }}>
                {team.title}
              </Link>
              <span className="badge">{member.role === 'owner' ? 'Owner' : 'Member'}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
