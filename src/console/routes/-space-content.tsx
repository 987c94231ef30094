import { EditPageButton, NewChangeRequestButton } from '../features/change-requests/components/start-change-request';
import { PageComments } from '../features/change-requests/components/page-comments';
import { useUser } from '../features/auth/api/get-user';
import { useSpace } from '../features/content/api/get-space';
import { FollowButton } from '../features/notifications/components/follow-button';
import { SpacePages } from '../features/pages/components/space-pages';
import { SpaceSearch } from '../features/search/components/space-search';
import { spaceRoute } from './-space';

/** The space as readers see it, on `pageId` or its first page: the space's home and its pages. */
export function SpaceContent({ pageId }: { pageId?: string }) {
  const { organizationId, spaceId } = spaceRoute.useParams();
  const space = useSpace(spaceId);
  const user = useUser();
  const access = {
    organizationId,
    spaceId,
    canEdit: space.permissions.edit,
    locked: space.editMode === 'locked',
  };
  return (
    <SpacePages
      organizationId={organizationId}
      spaceId={spaceId}
      spaceTitle={space.title || 'Untitled'}
      pageId={pageId}
      filesRevision={space.revision}
      emptyAction={<NewChangeRequestButton {...access} label="Start a change request" />}
      pageActions={(page) => (
        <>
          <FollowButton target={{ spaceId, pageId: page.id }} what="page" />
          <EditPageButton {...access} pageId={page.id} userId={user.id} />
        </>
      )}
      pageFooter={(page) => (
        <PageComments
          organizationId={organizationId}
          spaceId={spaceId}
          pageId={page.id}
          pageTitle={page.title}
          canComment={space.permissions.comment}
          currentUserId={user.id}
        />
      )}
      sidebar={(tree) => (
        <SpaceSearch spaceId={spaceId} spaceTitle={space.title || 'Untitled'}>
          {tree}
        </SpaceSearch>
      )}
    />
  );
}
