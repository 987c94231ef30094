import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { siteRedirectsQueryOptions } from '../features/sites/api/site-redirects';
import { siteStructureQueryOptions } from '../features/sites/api/get-site-structure';
import { SiteRedirects } from '../features/sites/components/site-redirects';
import { useSiteDocumentTitle } from './-site';

export const Route = createFileRoute('/_app/o/$organizationId/sites_/$siteId/redirects')({
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(siteRedirectsQueryOptions(params)),
      context.queryClient.ensureQueryData(siteStructureQueryOptions(params)),
    ]),
  component: SiteRedirectsPage,
});

function SiteRedirectsPage() {
  const params = Route.useParams();
  return (
    <>
      <DocumentTitle>{useSiteDocumentTitle('Redirects')}</DocumentTitle>
      <SiteRedirects site={params} />
    </>
  );
}
