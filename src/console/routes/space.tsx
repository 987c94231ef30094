import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { preloadMarkdown } from '../components/ui/markdown';
import { collectionsQueryOptions } from '../features/content/api/get-collections';
import { spaceQueryOptions, useSpace } from '../features/content/api/get-space';
import { spacesQueryOptions } from '../features/content/api/get-spaces';
import { useOrganization } from '../features/organizations/api/get-organization';
import { contentError } from './content-error';
import { organizationRoute } from './organization';
import { idParams } from './url';

/**
 * `/o/$organizationId/spaces/$spaceId/…`: the space's header and sections (pages, change requests, settings).
 * Each section is a child route and sets the document title.
 */
export const spaceRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'spaces/$spaceId',
  params: { parse: idParams('spaceId') },
  loader: ({ context, params }) => {
    // Every section of a space renders markdown: fetch the renderer alongside the data.
    preloadMarkdown();
    return Promise.all([
      context.queryClient.ensureQueryData(spaceQueryOptions(params.spaceId)),
      context.queryClient.ensureQueryData(collectionsQueryOptions(params.organizationId)),
      context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId)),
    ]);
  },
  component: lazyRouteComponent(() => import('./space.lazy'), 'SpaceLayout'),
  errorComponent: contentError('space'),
});

/** "Handbook · Acme", after what the section adds in front. */
export function useSpaceDocumentTitle(...parts: string[]): string {
  const { organizationId, spaceId } = spaceRoute.useParams();
  const organization = useOrganization(organizationId);
  const space = useSpace(spaceId);
  return [...parts, space.title || 'Untitled', organization.title].join(' · ');
}
