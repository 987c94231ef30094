import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { collectionQueryOptions } from '../features/content/api/get-collection';
import { collectionsQueryOptions } from '../features/content/api/get-collections';
import { spacesQueryOptions } from '../features/content/api/get-spaces';
import { contentError } from './content-error';
import { organizationRoute } from './organization';
import { idParams } from './url';

export const collectionRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'collections/$collectionId',
  params: { parse: idParams('collectionId') },
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(collectionQueryOptions(params.collectionId)),
      context.queryClient.ensureQueryData(collectionsQueryOptions(params.organizationId)),
      context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId)),
    ]),
  component: lazyRouteComponent(() => import('./collection.lazy'), 'CollectionPage'),
  errorComponent: contentError('collection'),
});
