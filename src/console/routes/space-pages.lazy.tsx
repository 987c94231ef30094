import { DocumentTitle } from '../components/ui/page';
import { EditPageButton, NewChangeRequestButton } from '../features/change-requests/components/start-change-request';
import { useUser } from '../features/auth/api/get-user';
import { useSpace } from '../features/content/api/get-space';
import { useSpacePage } from '../features/pages/api/get-space-page';
import { SpacePages } from '../features/pages/components/space-pages';
import { SpaceSearch } from '../features/search/components/space-search';
import { spaceRoute, useSpaceDocumentTitle } from './space';
import { spacePageRoute } from './space-pages';

function SpaceContent({ pageId }: { pageId?: string }) {
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
      pageActions={(page) => <EditPageButton {...access} pageId={page.id} userId={user.id} />}
      sidebar={(tree) => (
        <SpaceSearch spaceId={spaceId} spaceTitle={space.title || 'Untitled'}>
          {tree}
        </SpaceSearch>
      )}
    />
  );
}

export function SpaceHome() {
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle()}</DocumentTitle>
      <SpaceContent />
    </>
  );
}

export function SpacePage() {
  const { spaceId, pageId } = spacePageRoute.useParams();
  const page = useSpacePage(spaceId, pageId);
  return (
    <>
      <DocumentTitle>{useSpaceDocumentTitle(page.title || 'Untitled')}</DocumentTitle>
      <SpaceContent pageId={pageId} />
    </>
  );
}
