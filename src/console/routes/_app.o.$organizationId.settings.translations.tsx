import { translationsQueryOptions } from '../features/translations/api/get-translations';
import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { TranslationsList } from '../features/translations/components/translations-list';
import { createFileRoute } from '@tanstack/react-router';

/** `/o/$organizationId/settings/translations`: translation settings (admins change them). */
export const Route = createFileRoute('/_app/o/$organizationId/settings/translations')({
  loader: ({ context, params }) => context.queryClient.prefetchQuery(translationsQueryOptions(params.organizationId)),
  component: TranslationsPage,
});

function TranslationsPage() {
  const { organizationId } = Route.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`Translations · ${organization.title}`}</DocumentTitle>
      <TranslationsList organizationId={organizationId} canCreate={organization.permissions.admin} />
    </>
  );
}
