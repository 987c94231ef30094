import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { spacePagesQueryOptions } from '../lib/space-pages';
import { SpaceContent } from './-space-content';
import { useSpaceDocumentTitle } from './-space';

/** `/o/$organizationId/spaces/$spaceId`: the space as readers see it, on its first page. */
export const Route = createFileRoute('/_app/o/$organizationId/spaces/$spaceId/')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(spacePagesQueryOptions(params.spaceId)),
  component: SpaceHome,
});

function SpaceHome() {
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle()}</DocumentTitle>
      <SpaceContent />
    </>
  );
}
