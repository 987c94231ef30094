import { Link, useNavigate } from '@tanstack/react-router';
import { Breadcrumbs, PageHeader } from '../../../components/ui/page';
import { EmptyState } from '../../../components/ui/states';
import { FolderIcon } from '../../../components/ui/icons';
import { useCollection } from '../api/get-collection';
import { useCollections } from '../api/get-collections';
import { useSpaces } from '../api/get-spaces';
import { ancestry, buildTree } from '../utils/tree';
import { CollectionActions } from './collection-actions';
import { ContentTree } from './content-tree';
import { CreateButtons } from './create-buttons';
import '../content.css';

/** One collection: where it is, what it holds, and what can be done with it. */
export function CollectionView({
  organizationId,
  organizationTitle,
  collectionId,
}: {
  organizationId: string;
  organizationTitle: string;
  collectionId: string;
}) {
  const collection = useCollection(collectionId);
  const collections = useCollections(organizationId);
  const spaces = useSpaces(organizationId);
  const navigate = useNavigate();
  const nodes = buildTree(collections, spaces, collection.id);
  const parents = ancestry(collections, collection.parent);
  const canCreate = collection.permissions.create;
  const parent = parents[parents.length - 1];

  return (
    <>
      <PageHeader
        breadcrumbs={
          <Breadcrumbs>
            {[
              <Link key="org" to="/o/$organizationId" params={{ organizationId }}>
                {organizationTitle}
              </Link>,
              ...parents.map((parent) => (
                <Link
                  key={parent.id}
                  to="/o/$organizationId/collections/$collectionId"
                  params={{ organizationId, collectionId: parent.id }}
                >
                  {parent.title}
                </Link>
              )),
              <span key="self">{collection.title}</span>,
            ]}
          </Breadcrumbs>
        }
        icon={<FolderIcon width={22} height={22} />}
        title={collection.title}
        description={collection.description || undefined}
        actions={
          <>
            {canCreate && nodes.length > 0 && <CreateButtons organizationId={organizationId} parent={collection} />}
            <CollectionActions
              collection={collection}
              showCreate={false}
              onDeleted={() =>
                parent
                  ? navigate({
                      to: '/o/$organizationId/collections/$collectionId',
                      params: { organizationId, collectionId: parent.id },
                    })
                  : navigate({ to: '/o/$organizationId', params: { organizationId } })
              }
            />
          </>
        }
      />
      {nodes.length === 0 ? (
        <EmptyState
          icon={<FolderIcon width={28} height={28} />}
          title="This collection is empty"
          action={canCreate && <CreateButtons organizationId={organizationId} parent={collection} />}
        >
          {canCreate ? 'Add a space or a nested collection.' : 'Nothing in it is shared with you yet.'}
        </EmptyState>
      ) : (
        <div className="panel">
          <ContentTree nodes={nodes} label={`Inside ${collection.title}`} />
        </div>
      )}
    </>
  );
}
