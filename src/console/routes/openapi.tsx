import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { idSchema, openApiSlugSchema } from '../../shared/contract';
import { specsQueryOptions } from '../features/openapi/api/get-specs';
import { specQueryOptions } from '../features/openapi/api/get-spec';
import { versionsQueryOptions } from '../features/openapi/api/get-versions';
import { organizationRoute } from './organization';

/** `/o/$organizationId/openapi`: the organization's OpenAPI specifications. */
export const openApiSpecsRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'openapi',
  loader: ({ context, params }) => context.queryClient.prefetchQuery(specsQueryOptions(params.organizationId)),
  component: lazyRouteComponent(() => import('./openapi.lazy'), 'SpecsPage'),
});

/** `?tab=reference|compare&version=&from=&to=`: what the spec's page shows, dropped when not valid. */
const specSearchSchema = z.object({
  tab: z.enum(['reference', 'compare']).optional().catch(undefined),
  version: idSchema.optional().catch(undefined),
  from: idSchema.optional().catch(undefined),
  to: idSchema.optional().catch(undefined),
});

/** `/o/$organizationId/openapi/$specSlug`: one specification, its versions, reference and comparisons. */
export const openApiSpecRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'openapi/$specSlug',
  params: {
    parse: (params) => ({ specSlug: openApiSlugSchema.parse(params.specSlug) }),
    stringify: (params) => ({ specSlug: params.specSlug }),
  },
  validateSearch: specSearchSchema,
  loader: async ({ context, params }) => {
    const spec = await context.queryClient.ensureQueryData(specQueryOptions(params.organizationId, params.specSlug));
    await context.queryClient.prefetchQuery(
      versionsQueryOptions(params.organizationId, params.specSlug, spec.lastVersion),
    );
  },
  component: lazyRouteComponent(() => import('./openapi.lazy'), 'SpecPage'),
});
