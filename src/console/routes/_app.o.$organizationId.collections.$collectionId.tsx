import { createFileRoute } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { AccessPanel } from '../features/access/components/access-panel';
import { useUser } from '../features/auth/api/get-user';
import { collectionQueryOptions, useCollection } from '../features/content/api/get-collection';
import { collectionsQueryOptions } from '../features/content/api/get-collections';
import { spacesQueryOptions } from '../features/content/api/get-spaces';
import { CollectionView } from '../features/content/components/collection-view';
import { useOrganization } from '../features/organizations/api/get-organization';
import { contentError } from './-content-error';
import { idParams } from './-url';

export const Route = createFileRoute('/_app/o/$organizationId/collections/$collectionId')({
  params: { parse: idParams('collectionId') },
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(collectionQueryOptions(params.collectionId)),
      context.queryClient.ensureQueryData(collectionsQueryOptions(params.organizationId)),
      context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId)),
    ]),
  component: CollectionPage,
  errorComponent: contentError('collection'),
});

function CollectionPage() {
  const { organizationId, collectionId } = Route.useParams();
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
