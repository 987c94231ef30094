import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { adaptiveSchemaQueryOptions } from '../features/sites/api/get-adaptive-schema';
import { templateConditionsQueryOptions } from '../features/sites/api/get-template-conditions';
import { AdaptiveContent } from '../features/sites/components/adaptive-content';
import { useSiteDocumentTitle } from './-site';

export const Route = createFileRoute('/_app/o/$organizationId/sites_/$siteId/adaptive')({
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(adaptiveSchemaQueryOptions(params)),
      context.queryClient.ensureQueryData(templateConditionsQueryOptions(params)),
    ]),
  component: SiteAdaptivePage,
});

function SiteAdaptivePage() {
  const params = Route.useParams();
  return (
    <>
      <DocumentTitle>{useSiteDocumentTitle('Adaptive content')}</DocumentTitle>
      <AdaptiveContent site={params} />
    </>
  );
}
