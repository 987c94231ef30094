import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { teamQueryOptions, useTeam } from '../features/teams/api/get-team';
import { TeamView } from '../features/teams/components/team-view';
import { idParams } from './-url';

export const Route = createFileRoute('/_app/o/$organizationId/settings/teams_/$teamId')({
  params: { parse: idParams('teamId') },
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(teamQueryOptions(params.organizationId, params.teamId)),
  component: TeamPage,
});

function TeamPage() {
  const { organizationId, teamId } = Route.useParams();
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
