import { DocumentTitle } from '../components/ui/page';
import { AccessPanel } from '../features/access/components/access-panel';
import { useUser } from '../features/auth/api/get-user';
import { useCollection } from '../features/content/api/get-collection';
import { CollectionView } from '../features/content/components/collection-view';
import { useOrganization } from '../features/organizations/api/get-organization';
import { collectionRoute } from './collection';

export function CollectionPage() {
  const { organizationId, collectionId } = collectionRoute.useParams();
  const organization = useOrganization(organizationId);
  const collection = useCollection(collectionId);
  const me = useUser();
  return (
    <>
      <DocumentTitle>{`${collection.title} · ${organization.title}`}</DocumentTitle>
      <CollectionView
        organizationId={organizationId}
        organizationTitle={organization.title}
        collectionId={collectionId}
      />
      <div className="collection-access">
        <AccessPanel
          key={collection.id}
          target={{ kind: 'collections', id: collection.id, organizationId }}
          defaultLevel={collection.defaultLevel}
          canAdmin={collection.permissions.admin}
          inheritsFrom={collection.parent ? 'collection' : 'organization'}
          me={me}
        />
      </div>
    </>
  );
}
