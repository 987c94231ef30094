import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { spacesQueryOptions, useSpaces } from '../features/content/api/get-spaces';
import { siteStructureQueryOptions } from '../features/sites/api/get-site-structure';
import { StructureEditor } from '../features/sites/components/structure-editor';
import { useSiteDocumentTitle } from './-site';

export const Route = createFileRoute('/_app/o/$organizationId/sites_/$siteId/structure')({
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(siteStructureQueryOptions(params)),
      context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId)),
    ]),
  component: SiteStructurePage,
});

function SiteStructurePage() {
  const params = Route.useParams();
  const spaces = useSpaces(params.organizationId);
  return (
    <>
      <DocumentTitle>{useSiteDocumentTitle('Structure')}</DocumentTitle>
      <StructureEditor site={params} spaces={spaces.filter((space) => !space.deletedAt)} />
    </>
  );
}
