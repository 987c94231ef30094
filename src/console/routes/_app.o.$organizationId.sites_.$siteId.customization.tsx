import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { customizationQueryOptions } from '../features/sites/api/get-customization';
import { SiteCustomization } from '../features/sites/components/site-customization';
import { useSiteDocumentTitle } from './-site';

export const Route = createFileRoute('/_app/o/$organizationId/sites_/$siteId/customization')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(customizationQueryOptions(params)),
  component: SiteCustomizationPage,
});

function SiteCustomizationPage() {
  const params = Route.useParams();
  return (
    <>
      <DocumentTitle>{useSiteDocumentTitle('Customization')}</DocumentTitle>
      <SiteCustomization site={params} />
    </>
  );
}
