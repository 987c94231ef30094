import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import {
  INTEGRATION_CATEGORIES,
  INTEGRATION_NAME_MAX,
  INTEGRATION_NAME_PATTERN,
  INTEGRATION_SEARCH_MAX,
  DOTS_ONLY,
  INTEGRATION_TARGETS,
} from '../../shared/contract/constants';
import type { IntegrationFilters } from '../../shared/contract';
import { ApiError } from '../lib/api-client';
import { installedQueryOptions, integrationQueryOptions } from '../features/integrations/api/get-integrations';
import { organizationRoute } from './organization';
import { oneOf, pathParams, searchParams, text } from './url';

/** `?search=&category=&target=`: the directory's filters, dropped when not valid. */
const directorySearch = searchParams<Pick<IntegrationFilters, 'search' | 'category' | 'target'>>({
  search: text(INTEGRATION_SEARCH_MAX),
  category: oneOf(INTEGRATION_CATEGORIES),
  target: oneOf(INTEGRATION_TARGETS),
});

/** An integration's name as the contract allows it (letters, digits, `-_.`, not dots only); any other is not found. */
function integrationParams(params: { integrationName: string }) {
  const { integrationName } = pathParams({ integrationName: INTEGRATION_NAME_MAX })(params);
  if (!INTEGRATION_NAME_PATTERN.test(integrationName) || DOTS_ONLY.test(integrationName)) {
    throw new ApiError(404, 'Not found.');
  }
  return { integrationName };
}

/** `/o/$organizationId/integrations`: the integrations directory, and what is installed on the organization. */
export const integrationsRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'integrations',
  validateSearch: directorySearch,
  loader: ({ context, params }) => context.queryClient.prefetchQuery(installedQueryOptions(params.organizationId)),
  component: lazyRouteComponent(() => import('./integrations.lazy'), 'DirectoryPage'),
});

/** `/o/$organizationId/integrations/$integrationName`: one integration and its installation here. */
export const integrationRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'integrations/$integrationName',
  params: {
    parse: integrationParams,
    stringify: (params) => ({ integrationName: params.integrationName }),
  },
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(integrationQueryOptions(params.integrationName)),
      context.queryClient.prefetchQuery(installedQueryOptions(params.organizationId)),
    ]),
  component: lazyRouteComponent(() => import('./integrations.lazy'), 'IntegrationPage'),
});
