import type { Collection } from '../../shared/contract/collections.js';
import type { Space } from '../../shared/contract/spaces.js';
import type { DefaultLevel, Role } from '../../shared/contract/common.js';
import type { CollectionRow } from '../storage/repos/collections.js';
import type { SpaceRow } from '../storage/repos/spaces.js';
import { asRole } from '../domain/permissions/roles.js';
import { collectionPermissions } from '../domain/collections/policy.js';
import { spacePermissions } from '../domain/spaces/policy.js';
import type { Urls } from '../lib/urls.js';

export function presentDefaultLevel(value: string | null): DefaultLevel {
  return value === 'inherit' ? 'inherit' : asRole(value);
}

export function presentCollection(urls: Urls, row: CollectionRow, level: Role | null): Collection {
  return {
    object: 'collection',
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    organization: row.organization_id,
    ...(row.parent_id ? { parent: row.parent_id } : {}),
    defaultLevel: presentDefaultLevel(row.default_level),
    urls: {
      location: urls.api(`/collections/${row.id}`),
      app: urls.app(`/o/${row.organization_id}/collections/${row.id}`),
    },
    permissions: collectionPermissions(level),
  };
}

export function presentSpace(urls: Urls, row: SpaceRow, level: Role | null): Space {
  return {
    object: 'space',
    id: row.id,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility as Space['visibility'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.deleted_at ? { deletedAt: row.deleted_at } : {}),
    editMode: row.edit_mode as Space['editMode'],
    mergeRules: { type: 'inherit' },
    organization: row.organization_id,
    ...(row.parent_id ? { parent: row.parent_id } : {}),
    revision: row.revision_id,
    defaultLevel: presentDefaultLevel(row.default_level),
    comments: row.comments,
    changeRequests: row.change_requests,
    changeRequestsOpen: row.change_requests_open,
    changeRequestsDraft: row.change_requests_draft,
    urls: {
      location: urls.api(`/spaces/${row.id}`),
      app: urls.app(`/o/${row.organization_id}/spaces/${row.id}`),
    },
    permissions: spacePermissions(level),
  };
}
