import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { InstalledOn } from '../features/integrations/components/installed-on';
import { publishingAuthQueryOptions } from '../features/sites/api/get-publishing-auth';
import { siteQueryOptions } from '../features/sites/api/get-site';
import { siteStructureQueryOptions } from '../features/sites/api/get-site-structure';
import { SiteSettings } from '../features/sites/components/site-settings';
import { useSiteDocumentTitle } from './-site';

export const Route = createFileRoute('/_app/o/$organizationId/sites_/$siteId/settings')({
  loader: async ({ context, params }) => {
    const [site] = await Promise.all([
      context.queryClient.ensureQueryData(siteQueryOptions(params)),
      context.queryClient.ensureQueryData(siteStructureQueryOptions(params)),
    ]);
    // The signing key is for those who manage the site only.
    if (site.permissions.admin) await context.queryClient.ensureQueryData(publishingAuthQueryOptions(params));
  },
  component: SiteSettingsPage,
});

function SiteSettingsPage() {
  const params = Route.useParams();
  return (
    <>
      <DocumentTitle>{useSiteDocumentTitle('Settings')}</DocumentTitle>
      <SiteSettings site={params} />
      <InstalledOn organizationId={params.organizationId} kind="site" id={params.siteId} />
    </>
  );
}
