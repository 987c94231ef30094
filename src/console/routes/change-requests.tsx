import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { changeRequestStatusSchema } from '../../shared/contract';
import type { ChangeRequestStatus } from '../../shared/contract';
import { DocumentTitle } from '../components/ui/page';
import { changeRequestsQueryOptions } from '../features/change-requests/api/get-change-requests';
import { ChangeRequestList } from '../features/change-requests/components/change-request-list';
import { NewChangeRequestButton } from '../features/change-requests/components/start-change-request';
import { useSpace } from '../features/content/api/get-space';
import { spaceRoute, useSpaceDocumentTitle } from './space';

/** `?status=draft|merged|archived`; open, the default, leaves the URL bare. Anything else falls back to open. */
const listSearchSchema = z.object({
  status: changeRequestStatusSchema.exclude(['open']).optional().catch(undefined),
});

/** `/o/$organizationId/spaces/$spaceId/change-requests`: the list, one tab per status. */
export const changeRequestsRoute = createRoute({
  getParentRoute: () => spaceRoute,
  path: 'change-requests',
  validateSearch: listSearchSchema,
  loaderDeps: ({ search }): { status: ChangeRequestStatus } => ({ status: search.status ?? 'open' }),
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureInfiniteQueryData(changeRequestsQueryOptions(params.spaceId, deps.status)),
  component: ChangeRequestsPage,
});

function ChangeRequestsPage() {
  const { organizationId, spaceId } = changeRequestsRoute.useParams();
  const { status = 'open' } = changeRequestsRoute.useSearch();
  const space = useSpace(spaceId);
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle('Change requests')}</DocumentTitle>
      <ChangeRequestList
        organizationId={organizationId}
        spaceId={spaceId}
        status={status}
        createAction={
          <NewChangeRequestButton
            organizationId={organizationId}
            spaceId={spaceId}
            canEdit={space.permissions.edit}
            locked={space.editMode === 'locked'}
          />
        }
      />
    </>
  );
}
