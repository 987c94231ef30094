import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { shareLinksQueryOptions } from '../features/sites/api/get-share-links';
import { ShareLinks } from '../features/sites/components/share-links';
import { useSiteDocumentTitle } from './-site';

export const Route = createFileRoute('/_app/o/$organizationId/sites_/$siteId/share-links')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(shareLinksQueryOptions(params)),
  component: SiteShareLinksPage,
});

function SiteShareLinksPage() {
  const params = Route.useParams();
  return (
    <>
      <DocumentTitle>{useSiteDocumentTitle('Share links')}</DocumentTitle>
      <ShareLinks site={params} />
    </>
  );
}
