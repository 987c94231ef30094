import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { TEAM_TITLE_MAX } from '../../shared/contract/constants';
import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { teamsQueryOptions } from '../features/teams/api/get-teams';
import { TeamsList } from '../features/teams/components/teams-list';
import { searchParams, text } from './-url';

/** `?title=`: the title filter; anything invalid falls back to none. */
const teamsSearch = searchParams<{ title: string }>({ title: text(TEAM_TITLE_MAX) });

export const Route = createFileRoute('/_app/o/$organizationId/settings/teams')({
  validateSearch: teamsSearch,
  loaderDeps: ({ search }) => ({ title: search.title }),
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureQueryData(teamsQueryOptions(params.organizationId, deps.title)),
  component: TeamsPage,
});

function TeamsPage() {
  const { organizationId } = Route.useParams();
  const { title } = Route.useSearch();
  const organization = useOrganization(organizationId);
  const navigate = useNavigate({ from: Route.fullPath });
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
