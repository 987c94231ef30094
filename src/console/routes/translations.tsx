import { createRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { translationsQueryOptions } from '../features/translations/api/get-translations';
import { TranslationsList } from '../features/translations/components/translations-list';
import { orgSettingsRoute } from './org-settings';

/** `/o/$organizationId/settings/translations`: translation settings (admins change them). */
export const translationsRoute = createRoute({
  getParentRoute: () => orgSettingsRoute,
  path: 'translations',
  loader: ({ context, params }) => context.queryClient.prefetchQuery(translationsQueryOptions(params.organizationId)),
  component: TranslationsPage,
});

function TranslationsPage() {
  const { organizationId } = translationsRoute.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`Translations · ${organization.title}`}</DocumentTitle>
      <TranslationsList organizationId={organizationId} canCreate={organization.permissions.admin} />
    </>
  );
}
