import type { GitSyncRun, GitSyncSettings, GitSyncState } from '../../shared/contract/git-sync.js';
import type { GitSyncRow, GitSyncRunRow } from '../storage/repos/git-sync.js';
import type { Urls } from '../lib/urls.js';

export function presentGitSyncRun(row: GitSyncRunRow): GitSyncRun {
  return {
    object: 'git-sync-run',
    id: row.id,
    direction: row.direction,
    trigger: row.trigger,
    status: row.status,
    ref: row.ref,
    ...(row.commit_oid ? { commit: row.commit_oid } : {}),
    ...(row.revision_id ? { revision: row.revision_id } : {}),
    ...(row.change_request_id ? { changeRequest: row.change_request_id } : {}),
    ...(row.message ? { message: row.message } : {}),
    ...(row.error ? { error: row.error } : {}),
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The webhook a forge calls on a push (its signature, or GitLab's token, checked with the secret). */
export function gitWebhookUrl(urls: Urls, spaceId: string): string {
  return urls.api(`/spaces/${spaceId}/git/webhook`);
}

export function presentGitSync(
  urls: Urls,
  view: {
    row: GitSyncRow;
    hasToken: boolean;
    webhookSecret: string;
    lastRun: GitSyncRunRow | undefined;
    conflictNumber: number | undefined;
  },
): GitSyncSettings {
  const { row } = view;
  return {
    object: 'git-sync',
    url: row.url,
    branch: row.branch,
    root: row.root,
    direction: row.direction,
    hasToken: view.hasToken,
    authorName: row.author_name,
    authorEmail: row.author_email,
    pollMinutes: row.poll_minutes,
    webhook: { url: gitWebhookUrl(urls, row.space_id), secret: view.webhookSecret },
    ...(row.commit_oid ? { commit: row.commit_oid } : {}),
    ...(row.revision_id ? { revision: row.revision_id } : {}),
    ...(row.synced_at ? { syncedAt: row.synced_at } : {}),
    ...(view.conflictNumber !== undefined ? { conflictChangeRequest: view.conflictNumber } : {}),
    ...(view.lastRun ? { lastRun: presentGitSyncRun(view.lastRun) } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The contract's GitSyncState: the repository's name and provider, its tree URL, when it was set. */
export function presentGitSyncState(row: GitSyncRow): GitSyncState {
  const name = new URL(row.url).pathname.replace(/^\/+|\.git$|\/+$/g, '');
  return {
    repoName: name,
    ...(row.provider === 'github' || row.provider === 'gitlab' ? { installationProvider: row.provider } : {}),
    integration: 'git-sync',
    ...(row.tree_url ? { url: row.tree_url } : {}),
    updatedAt: row.updated_at,
  };
}
