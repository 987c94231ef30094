import { getRouteApi } from '@tanstack/react-router';
import { useSpace } from '../features/content/api/get-space';
import { useOrganization } from '../features/organizations/api/get-organization';

/** The space's route (`_app.o.$organizationId.spaces.$spaceId.tsx`), read from its sections. */
export const spaceRoute = getRouteApi('/_app/o/$organizationId/spaces/$spaceId');

/** "Handbook · Acme", after what the section adds in front. */
export function useSpaceDocumentTitle(...parts: string[]): string {
  const { organizationId, spaceId } = spaceRoute.useParams();
  const organization = useOrganization(organizationId);
  const space = useSpace(spaceId);
  return [...parts, space.title || 'Untitled', organization.title].join(' · ');
}
