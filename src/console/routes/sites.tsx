import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { SITE_TITLE_MAX } from '../../shared/contract/constants';
import { spacesQueryOptions } from '../features/content/api/get-spaces';
import { sitesQueryOptions } from '../features/sites/api/get-sites';
import { organizationRoute } from './organization';
import { boolean, id, searchParams, text } from './url';

/** `?title=&published=true|false&space=`: the list's filters (the API's own), dropped when not valid. */
const sitesSearch = searchParams<{ title: string; published: boolean; space: string }>({
  title: text(SITE_TITLE_MAX),
  published: boolean,
  space: id,
});

/** `/o/$organizationId/sites`: the organization's docs sites. */
export const sitesRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'sites',
  validateSearch: sitesSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    // The list loads in place (its filters stay on screen); only the spaces, for the filter, are waited for.
    void context.queryClient.prefetchInfiniteQuery(sitesQueryOptions(params.organizationId, deps));
    return context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId));
  },
  component: lazyRouteComponent(() => import('./sites.lazy'), 'SitesPage'),
});
