import { Outlet, useNavigate } from '@tanstack/react-router';
import { DocumentTitle } from '../components/ui/page';
import { useChangeRequest } from '../features/change-requests/api/get-change-request';
import { ChangeRequestEditor, readOnlyReason } from '../features/change-requests/components/change-request-editor';
import { ChangeRequestHeader, ChangeRequestNav } from '../features/change-requests/components/change-request-header';
import { ConflictsScreen } from '../features/change-requests/components/conflicts-screen';
import { ReviewScreen } from '../features/change-requests/components/review-screen';
import { changeRequestTitle } from '../features/change-requests/utils/labels';
import { useUser } from '../features/auth/api/get-user';
import { useSpace } from '../features/content/api/get-space';
import { ImportButton } from '../features/imports/forms/import-dialog';
import { useSpaceDocumentTitle } from './space';
import {
  changeRequestRoute,
  changeRequestReviewRoute,
  changeRequestPagesRoute,
  changeRequestPageRoute,
  changeRequestConflictsRoute,
} from './change-request';

export function ChangeRequestLayout() {
  const { organizationId, spaceId, number } = changeRequestRoute.useParams();
  return (
    <div className="cr-page">
      <ChangeRequestHeader
        organizationId={organizationId}
        spaceId={spaceId}
        number={number}
        actions={(changeRequest) =>
          changeRequest.permissions.edit &&
          (changeRequest.status === 'open' || changeRequest.status === 'draft') && (
            <ImportButton spaceId={spaceId} changeRequest={number} into={`change request #${number}`} />
          )
        }
      />
      <ChangeRequestNav organizationId={organizationId} spaceId={spaceId} number={number} />
      <Outlet />
    </div>
  );
}

function useChangeRequestDocumentTitle(...parts: string[]) {
  const { spaceId, number } = changeRequestRoute.useParams();
  const changeRequest = useChangeRequest(spaceId, number);
  return useSpaceDocumentTitle(...parts, `#${number} ${changeRequestTitle(changeRequest)}`);
}

export function ReviewPage() {
  const { organizationId, spaceId, number } = changeRequestReviewRoute.useParams();
  const { view } = changeRequestReviewRoute.useSearch();
  const space = useSpace(spaceId);
  const user = useUser();
  const navigate = useNavigate({ from: changeRequestReviewRoute.fullPath });
  return (
    <>
      <DocumentTitle>{useChangeRequestDocumentTitle('Review')}</DocumentTitle>
      <ReviewScreen
        organizationId={organizationId}
        spaceId={spaceId}
        number={number}
        spaceLocked={space.editMode === 'locked'}
        currentUserId={user.id}
        view={view ?? 'split'}
        onViewChange={(next) =>
          void navigate({ search: next === 'inline' ? { view: 'inline' } : {}, replace: true, resetScroll: false })
        }
      />
    </>
  );
}

export function EditorHome() {
  const { organizationId, spaceId, number } = changeRequestPagesRoute.useParams();
  const space = useSpace(spaceId);
  return (
    <>
      <DocumentTitle>{useChangeRequestDocumentTitle('Pages')}</DocumentTitle>
      <ChangeRequestEditor
        organizationId={organizationId}
        spaceId={spaceId}
        number={number}
        spaceLocked={space.editMode === 'locked'}
      />
    </>
  );
}

export function EditorPage() {
  const { organizationId, spaceId, number, pageId } = changeRequestPageRoute.useParams();
  const space = useSpace(spaceId);
  return (
    <>
      <DocumentTitle>{useChangeRequestDocumentTitle('Edit')}</DocumentTitle>
      <ChangeRequestEditor
        organizationId={organizationId}
        spaceId={spaceId}
        number={number}
        pageId={pageId}
        spaceLocked={space.editMode === 'locked'}
      />
    </>
  );
}

export function ConflictsPage() {
  const { organizationId, spaceId, number } = changeRequestConflictsRoute.useParams();
  const space = useSpace(spaceId);
  const changeRequest = useChangeRequest(spaceId, number);
  return (
    <>
      <DocumentTitle>{useChangeRequestDocumentTitle('Conflicts')}</DocumentTitle>
      <ConflictsScreen
        organizationId={organizationId}
        spaceId={spaceId}
        number={number}
        readOnly={readOnlyReason(changeRequest, space.editMode === 'locked')}
      />
    </>
  );
}
