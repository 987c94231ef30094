import type { ReactNode } from 'react';
import { Link, useMatchRoute, useNavigate } from '@tanstack/react-router';
import { Breadcrumbs, Card, PageHeader } from '../../../components/ui/page';
import { buttonClass } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/states';
import {
  ChangeRequestIcon,
  DocIcon,
  LayersIcon,
  LinkIcon,
  SettingsIcon,
  TrashIcon,
} from '../../../components/ui/icons';
import { useCollections } from '../api/get-collections';
import { useSpace } from '../api/get-space';
import { SpaceSettingsForm } from '../forms/space-settings-form';
import { EDIT_MODE_LABELS, SPACE_UNTITLED, VISIBILITY_LABELS } from '../utils/labels';
import { ancestry } from '../utils/tree';
import { SpaceActions } from './space-actions';
import '../content.css';

interface SpaceProps {
  organizationId: string;
  spaceId: string;
}

/** Breadcrumbs, title, visibility and the "…" menu of a space: the top of every page of the space. */
export function SpaceHeader({
  organizationId,
  organizationTitle,
  spaceId,
  actions,
}: SpaceProps & {
  organizationTitle: string;
  /** More actions, before the "…" menu (e.g. "Import", from another feature). */
  actions?: ReactNode;
}) {
  const space = useSpace(spaceId);
  const collections = useCollections(organizationId);
  const navigate = useNavigate();
  const parents = ancestry(collections, space.parent);
  const title = space.title || SPACE_UNTITLED;
  const parent = parents[parents.length - 1];
  return (
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
          <span className={`badge badge-${space.visibility}`}>{VISIBILITY_LABELS[space.visibility].label}</span>
          {space.editMode === 'locked' && (
            <span className="badge badge-locked" title={EDIT_MODE_LABELS.locked.hint}>
              Locked
            </span>
          )}
          Last updated {new Date(space.updatedAt).toLocaleString()}
        </>
      }
      actions={
        !space.deletedAt && (
          <>
            {actions}
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
          </>
        )
      }
    />
  );
}

/** The sections of a space: its pages, its change requests, its settings. */
export function SpaceTabs({ organizationId, spaceId }: SpaceProps) {
  const space = useSpace(spaceId);
  const params = { organizationId, spaceId };
  const match = useMatchRoute();
  const open = space.changeRequestsOpen;
  // The pages section is the space's home, every page under it and past revisions; its link alone would only
  // match the home.
  const onPage =
    !!match({ to: '/o/$organizationId/spaces/$spaceId/pages/$pageId', params, fuzzy: true }) ||
    !!match({ to: '/o/$organizationId/spaces/$spaceId/revisions/$revisionId', params, fuzzy: true });
  const active = { className: 'active' };
  return (
    <nav className="tabs" aria-label="Space sections">
      <Link
        to="/o/$organizationId/spaces/$spaceId"
        params={params}
        className={onPage ? 'tab active' : 'tab'}
        aria-current={onPage ? 'page' : undefined}
        activeOptions={{ exact: true }}
        activeProps={active}
      >
        <DocIcon /> Pages
      </Link>
      <Link
        to="/o/$organizationId/spaces/$spaceId/change-requests"
        params={params}
        className="tab"
        activeProps={active}
      >
        <ChangeRequestIcon /> Change requests
        {open > 0 && (
          <span className="tab-count">
            {open}
            <span className="visually-hidden"> open</span>
          </span>
        )}
      </Link>
      <Link to="/o/$organizationId/spaces/$spaceId/links" params={params} className="tab" activeProps={active}>
        <LinkIcon /> Links
      </Link>
      <Link to="/o/$organizationId/spaces/$spaceId/history" params={params} className="tab" activeProps={active}>
        <LayersIcon /> History
      </Link>
      <Link to="/o/$organizationId/spaces/$spaceId/settings" params={params} className="tab" activeProps={active}>
        <SettingsIcon /> Settings
      </Link>
    </nav>
  );
}

/** A space in the trash: nothing to show but the way to restore it. */
export function SpaceInTrash({ organizationId, spaceId }: SpaceProps) {
  const space = useSpace(spaceId);
  return (
    <EmptyState
      icon={<TrashIcon width={28} height={28} />}
      title="This space is in the trash"
      action={
        <Link to="/o/$organizationId/trash" params={{ organizationId }} className={buttonClass('primary')}>
          Open the trash
        </Link>
      }
    >
      It was deleted on {new Date(space.deletedAt ?? space.updatedAt).toLocaleString()}. Restore it from the trash to
      see and change it again.
    </EmptyState>
  );
}

export function SpaceSettings({ spaceId }: { spaceId: string }) {
  const space = useSpace(spaceId);
  return (
    <Card title="Settings" id="space-settings">
      <SpaceSettingsForm key={space.id} space={space} />
    </Card>
  );
}
