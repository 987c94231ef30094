import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { listTeamsQuerySchema, teamParamsSchema } from '../../shared/contract';
import { teamQueryOptions } from '../features/teams/api/get-team';
import { teamsQueryOptions } from '../features/teams/api/get-teams';
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
  component: lazyRouteComponent(() => import('./teams.lazy'), 'TeamsPage'),
});

export const teamRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'teams/$teamId',
  params: { parse: (params) => teamParamsSchema.pick({ teamId: true }).parse(params) },
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(teamQueryOptions(params.organizationId, params.teamId)),
  component: lazyRouteComponent(() => import('./teams.lazy'), 'TeamPage'),
});
