import { createRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { listTeamsQuerySchema, teamParamsSchema } from '../../shared/contract';
import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { teamQueryOptions, useTeam } from '../features/teams/api/get-team';
import { teamsQueryOptions } from '../features/teams/api/get-teams';
import { TeamView } from '../features/teams/components/team-view';
import { TeamsList } from '../features/teams/components/teams-list';
import { orgSettingsRoute } from './org-settings';

/** `?title=`: the title filter; anything invalid falls back to none. */
const teamsSearchSchema = z.object({ title: listTeamsQuerySchema.shape.title.catch(undefined) });

export const teamsRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'teams',
  validateSearch: teamsSearchSchema,
  loaderDeps: ({ search }) => ({ title: search.title }),
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureQueryData(teamsQueryOptions(params.organizationId, deps.title)),
  component: TeamsPage,
});

function TeamsPage() {
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

export const teamRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'teams/$teamId',
  params: { parse: (params) => teamParamsSchema.pick({ teamId: true }).parse(params) },
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(teamQueryOptions(params.organizationId, params.teamId)),
  component: TeamPage,
});

function TeamPage() {
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
