import { createRoute } from '@tanstack/react-router';
import { spaceParamsSchema } from '../../shared/contract';
import { DocumentTitle } from '../components/ui/page';
import { collectionsQueryOptions } from '../features/content/api/get-collections';
import { spaceQueryOptions, useSpace } from '../features/content/api/get-space';
import { spacesQueryOptions } from '../features/content/api/get-spaces';
import { SpaceView } from '../features/content/components/space-view';
import { useOrganization } from '../features/organizations/api/get-organization';
import { contentError } from './content-error';
import { organizationRoute } from './organization';

export const spaceRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'spaces/$spaceId',
  params: { parse: (params) => spaceParamsSchema.parse(params) },
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(spaceQueryOptions(params.spaceId)),
      context.queryClient.ensureQueryData(collectionsQueryOptions(params.organizationId)),
      context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId)),
    ]),
  component: SpacePage,
  errorComponent: contentError('space'),
});

function SpacePage() {
  const { organizationId, spaceId } = spaceRoute.useParams();
  const organization = useOrganization(organizationId);
  const space = useSpace(spaceId);
  return (
    <>
      <DocumentTitle>{`${space.title || 'Untitled'} · ${organization.title}`}</DocumentTitle>
      <SpaceView organizationId={organizationId} organizationTitle={organization.title} spaceId={spaceId} />
    </>
  );
}
