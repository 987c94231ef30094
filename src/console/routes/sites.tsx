import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { listSitesQuerySchema } from '../../shared/contract';
import { spacesQueryOptions } from '../features/content/api/get-spaces';
import { sitesQueryOptions } from '../features/sites/api/get-sites';
import { organizationRoute } from './organization';

/** `?title=&published=true|false&space=`: the list's filters (the API's own), dropped when not valid. */
const sitesSearchSchema = z.object({
  title: listSitesQuerySchema.shape.title.catch(undefined),
  published: z.boolean().optional().catch(undefined),
  space: listSitesQuerySchema.shape.space.catch(undefined),
});

/** `/o/$organizationId/sites`: the organization's docs sites. */
export const sitesRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'sites',
  validateSearch: sitesSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    // The list loads in place (its filters stay on screen); only the spaces, for the filter, are waited for.
    void context.queryClient.prefetchInfiniteQuery(sitesQueryOptions(params.organizationId, deps));
    return context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId));
  },
  component: lazyRouteComponent(() => import('./sites.lazy'), 'SitesPage'),
});
