import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { TranslationsList } from '../features/translations/components/translations-list';
import { translationsRoute } from './translations';

export function TranslationsPage() {
  const { organizationId } = translationsRoute.useParams();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`Translations · ${organization.title}`}</DocumentTitle>
      <TranslationsList organizationId={organizationId} canCreate={organization.permissions.admin} />
    </>
  );
}
