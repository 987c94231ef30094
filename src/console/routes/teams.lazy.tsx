import { useNavigate } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { useTeam } from '../features/teams/api/get-team';
import { TeamView } from '../features/teams/components/team-view';
import { TeamsList } from '../features/teams/components/teams-list';
import { teamsRoute, teamRoute } from './teams';

export function TeamsPage() {
  const { organizationId } = teamsRoute.useParams();
  const { title } = teamsRoute.useSearch();
  const organization = useOrganization(organizationId);
  const navigate = useNavigate({ from: teamsRoute.fullPath });
  return (
    <>
      <DocumentTitle>{`Teams · ${organization.title}`}</DocumentTitle>
      <TeamsList
        organizationId={organizationId}
        title={title}
        onTitleChange={(next) => void navigate({ search: { title: next }, replace: true })}
        canCreate={organization.permissions.admin}
        onCreated={(team) =>
          void navigate({
            to: '/o/$organizationId/settings/teams/$teamId',
            params: { organizationId, teamId: team.id },
          })
        }
      />
    </>
  );
}

export function TeamPage() {
  const { organizationId, teamId } = teamRoute.useParams();
  const team = useTeam(organizationId, teamId);
  const navigate = useNavigate();
  return (
    <>
      <DocumentTitle>{`${team.title} · Teams`}</DocumentTitle>
      <TeamView
        organizationId={organizationId}
        teamId={teamId}
        onDeleted={() => navigate({ to: '/o/$organizationId/settings/teams', params: { organizationId } })}
      />
    </>
  );
}
