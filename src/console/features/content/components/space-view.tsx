import { Link, useNavigate } from '@tanstack/react-router';
import { Breadcrumbs, Card, PageHeader } from '../../../components/ui/page';
import { buttonClass } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/states';
import { DocIcon, TrashIcon } from '../../../components/ui/icons';
import { useCollections } from '../api/get-collections';
import { useSpace } from '../api/get-space';
import { SpaceSettingsForm } from '../forms/space-settings-form';
import { SPACE_UNTITLED, VISIBILITY_LABELS } from '../utils/labels';
import { ancestry } from '../utils/tree';
import { SpaceActions } from './space-actions';

/** One space: its (future) content and its settings. */
export function SpaceView({
  organizationId,
  organizationTitle,
  spaceId,
}: {
  organizationId: string;
  organizationTitle: string;
  spaceId: string;
}) {
  const space = useSpace(spaceId);
  const collections = useCollections(organizationId);
  const navigate = useNavigate();
  const parents = ancestry(collections, space.parent);
  const title = space.title || SPACE_UNTITLED;
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
              ...parents.map((collection) => (
                <Link
                  key={collection.id}
                  to="/o/$organizationId/collections/$collectionId"
                  params={{ organizationId, collectionId: collection.id }}
                >
                  {collection.title}
                </Link>
              )),
              <span key="self">{title}</span>,
            ]}
          </Breadcrumbs>
        }
        icon={space.emoji ? <span aria-hidden="true">{space.emoji}</span> : <DocIcon width={22} height={22} />}
        title={title}
        description={
          <>
            <span className={`badge badge-${space.visibility}`}>{VISIBILITY_LABELS[space.visibility].label}</span> Last
            updated {new Date(space.updatedAt).toLocaleString()}
          </>
        }
        actions={
          !space.deletedAt && (
            <SpaceActions
              space={space}
              showRename={false}
              onDeleted={() =>
                parent
                  ? navigate({
                      to: '/o/$organizationId/collections/$collectionId',
                      params: { organizationId, collectionId: parent.id },
                    })
                  : navigate({ to: '/o/$organizationId', params: { organizationId } })
              }
            />
          )
        }
      />
      {space.deletedAt ? (
        <EmptyState
          icon={<TrashIcon width={28} height={28} />}
          title="This space is in the trash"
          action={
            <Link to="/o/$organizationId/trash" params={{ organizationId }} className={buttonClass('primary')}>
              Open the trash
            </Link>
          }
        >
          It was deleted on {new Date(space.deletedAt).toLocaleString()}. Restore it from the trash to see and change it
          again.
        </EmptyState>
      ) : (
        <div className="space-layout">
          <Card title="Pages" id="space-pages">
            <EmptyState icon={<DocIcon width={28} height={28} />} title="This space has no pages yet">
              Pages and their editor arrive in a later version of the console.
            </EmptyState>
          </Card>
          <Card title="Settings" id="space-settings">
            <SpaceSettingsForm key={space.id} space={space} />
          </Card>
        </div>
      )}
    </>
  );
}
