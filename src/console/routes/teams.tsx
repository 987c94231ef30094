import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { TEAM_TITLE_MAX } from '../../shared/contract/constants';
import { teamQueryOptions } from '../features/teams/api/get-team';
import { teamsQueryOptions } from '../features/teams/api/get-teams';
import { orgSettingsRoute } from './org-settings';
import { idParams, searchParams, text } from './url';

/** `?title=`: the title filter; anything invalid falls back to none. */
const teamsSearch = searchParams<{ title: string }>({ title: text(TEAM_TITLE_MAX) });

export const teamsRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'teams',
  validateSearch: teamsSearch,
  loaderDeps: ({ search }) => ({ title: search.title }),
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureQueryData(teamsQueryOptions(params.organizationId, deps.title)),
  component: lazyRouteComponent(() => import('./teams.lazy'), 'TeamsPage'),
});

export const teamRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'teams/$teamId',
  params: { parse: idParams('teamId') },
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(teamQueryOptions(params.organizationId, params.teamId)),
  component: lazyRouteComponent(() => import('./teams.lazy'), 'TeamPage'),
});
