import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { integrationCategorySchema, integrationNameSchema, integrationTargetSchema } from '../../shared/contract';
import { installedQueryOptions, integrationQueryOptions } from '../features/integrations/api/get-integrations';
import { organizationRoute } from './organization';

/** `?search=&category=&target=`: the directory's filters, dropped when not valid. */
const directorySearchSchema = z.object({
  search: z.string().max(100).optional().catch(undefined),
  category: integrationCategorySchema.optional().catch(undefined),
  target: integrationTargetSchema.optional().catch(undefined),
});

/** `/o/$organizationId/integrations`: the integrations directory, and what is installed on the organization. */
export const integrationsRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'integrations',
  validateSearch: directorySearchSchema,
  loader: ({ context, params }) => context.queryClient.prefetchQuery(installedQueryOptions(params.organizationId)),
  component: lazyRouteComponent(() => import('./integrations.lazy'), 'DirectoryPage'),
});

/** `/o/$organizationId/integrations/$integrationName`: one integration and its installation here. */
export const integrationRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'integrations/$integrationName',
  params: {
    parse: (params) => ({ integrationName: integrationNameSchema.parse(params.integrationName) }),
    stringify: (params) => ({ integrationName: params.integrationName }),
  },
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(integrationQueryOptions(params.integrationName)),
      context.queryClient.prefetchQuery(installedQueryOptions(params.organizationId)),
    ]),
  component: lazyRouteComponent(() => import('./integrations.lazy'), 'IntegrationPage'),
});
