import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { OPENAPI_SLUG_MAX, OPENAPI_SLUG_PATTERN } from '../../shared/contract/constants';
import { ApiError } from '../lib/api-client';
import { specsQueryOptions } from '../features/openapi/api/get-specs';
import { specQueryOptions } from '../features/openapi/api/get-spec';
import { versionsQueryOptions } from '../features/openapi/api/get-versions';
import { organizationRoute } from './organization';
import { id, oneOf, pathParams, searchParams } from './url';

/** `/o/$organizationId/openapi`: the organization's OpenAPI specifications. */
export const openApiSpecsRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'openapi',
  loader: ({ context, params }) => context.queryClient.prefetchQuery(specsQueryOptions(params.organizationId)),
  component: lazyRouteComponent(() => import('./openapi.lazy'), 'SpecsPage'),
});

/** `?tab=reference|compare&version=&from=&to=`: what the spec's page shows, dropped when not valid. */
const specSearch = searchParams<{ tab: 'reference' | 'compare'; version: string; from: string; to: string }>({
  tab: oneOf(['reference', 'compare'] as const),
  version: id,
  from: id,
  to: id,
});

/** A spec's slug as the contract allows it (lowercase letters and digits, single dashes); any other is not found. */
function specParams(params: { specSlug: string }) {
  const { specSlug } = pathParams({ specSlug: OPENAPI_SLUG_MAX })(params);
  if (!OPENAPI_SLUG_PATTERN.test(specSlug)) throw new ApiError(404, 'Not found.');
  return { specSlug };
}

/** `/o/$organizationId/openapi/$specSlug`: one specification, its versions, reference and comparisons. */
export const openApiSpecRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'openapi/$specSlug',
  params: {
    parse: specParams,
    stringify: (params) => ({ specSlug: params.specSlug }),
  },
  validateSearch: specSearch,
  loader: async ({ context, params }) => {
    const spec = await context.queryClient.ensureQueryData(specQueryOptions(params.organizationId, params.specSlug));
    await context.queryClient.prefetchQuery(
      versionsQueryOptions(params.organizationId, params.specSlug, spec.lastVersion),
    );
  },
  component: lazyRouteComponent(() => import('./openapi.lazy'), 'SpecPage'),
});
