import { getRouteApi } from '@tanstack/react-router';
import { useChangeRequest } from '../features/change-requests/api/get-change-request';
import { changeRequestTitle } from '../features/change-requests/utils/labels';
import { useSpaceDocumentTitle } from './-space';

/** The change request's route (`…spaces.$spaceId.change-requests_.$number.tsx`), read from its sections. */
export const changeRequestRoute = getRouteApi('/_app/o/$organizationId/spaces/$spaceId/change-requests_/$number');

/** "Review · #3 Fix typos · Handbook · Acme". */
export function useChangeRequestDocumentTitle(...parts: string[]) {
  const { spaceId, number } = changeRequestRoute.useParams();
  const changeRequest = useChangeRequest(spaceId, number);
  return useSpaceDocumentTitle(...parts, `#${number} ${changeRequestTitle(changeRequest)}`);
}
