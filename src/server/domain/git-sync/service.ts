import { rm } from 'node:fs/promises';
import { queueSpaceEvent } from '../integrations/delivery.js';
import path from 'node:path';
import type { ServiceContext } from '../context.js';
import { transaction, type Db, type Executor } from '../../storage/db.js';
import * as repo from '../../storage/repos/git-sync.js';
import { findChangeRequest } from '../../storage/repos/change-requests.js';
import { wakeJobQueues, type JobHandler } from '../../jobs/queue.js';
import { keysetPage } from '../../storage/pagination.js';
import { loadSpace } from '../spaces/service.js';
import { decryptSecrets, encryptSecrets } from '../integrations/secrets.js';
import { ConflictError, DomainError, ForbiddenError, InvalidError, NotFoundError } from '../errors.js';
import { GitError, GitRepository, splitCredentials, type GitRemote } from '../../lib/git.js';
import { newSecret } from '../../lib/secrets.js';
import { nowIso } from '../../lib/time.js';
import { redactUrl } from '../../lib/redact-url.js';
import type { Urls } from '../../lib/urls.js';
import type { Config } from '../../config.js';
import type { Actor } from '../permissions/resolver.js';
import { importSettings } from '../imports/service.js';
import { importCommit, type GitImportSettings } from './import.js';
import { exportSpace, BranchMovedError } from './export.js';
import { GIT_SYNC_JOB, queueGitSync, type GitSyncJobPayload } from './queue.js';
import { findUserById } from '../../storage/repos/users.js';
import { findSpace } from '../../storage/repos/spaces.js';
import { recordEvent } from '../notifications/events.js';
import { isIntegrationAccountEmail } from '../../lib/integration-accounts.js';
import { integrationActorOfAccount } from '../integrations/tokens.js';

export { GIT_SYNC_JOB };
import type {
  ExportToGitRepository,
  GitFileRef,
  GitSyncSettingsBody,
  ImportGitRepository,
} from '../../../shared/contract/git-sync.js';
import { gitSyncSettingsBodySchema } from '../../../shared/contract/git-sync.js';

/**
 * Git Sync of a space (docs/design/git-sync.md): its settings (space admins), and its runs. Every sync is a run
 * row and a job of the queue (`git-sync`), one at a time per space across every process (the job's group), so a
 * crash loses nothing: the job runs again, and an import that got as far as its change request goes on with it.
 */
/** Syncs one process runs at once. */
export const GIT_SYNCS_IN_FLIGHT_MAX = 2;
/** Files under a synced folder, at most. */
export const GIT_FILES_MAX = 20_000;
/** A failing sync is tried this many times in all (with the queue's growing delay) before its run fails. */
const ATTEMPTS = 3;

export interface GitSyncDeps extends GitImportSettings {
  urls: Urls;
}

export function gitSyncSettings(config: Config, urls: Urls): GitSyncDeps {
  const imports = importSettings(config);
  return {
    urls,
    limits: imports.limits,
    allowPrivate: imports.allowPrivate,
    filesMax: config.gitFilesMax ?? GIT_FILES_MAX,
    cacheDir: (spaceId) => path.join(config.dataDir, 'git-cache', `${spaceId}.git`),
  };
}

interface Secrets {
  token?: string;
  username?: string;
  webhookSecret: string;
}

async function secretsOf(db: Executor, row: repo.GitSyncRow): Promise<Secrets> {
  return (await decryptSecrets(db, row.secrets)) as unknown as Secrets;
}

/** The URL a client may name: https, or http where private addresses are allowed (tests, intranets). */
function checkUrl(url: string, allowPrivate: GitSyncDeps['allowPrivate'], field = 'url'): void {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && !(allowPrivate !== false && parsed.protocol === 'http:')) {
    throw new InvalidError(field, 'must be an https:// URL');
  }
}

/** The remote of a sync: its URL and token. */
export async function remoteOf(db: Executor, row: repo.GitSyncRow): Promise<GitRemote> {
  const secrets = await secretsOf(db, row);
  return {
    url: row.url,
    ...(secrets.token ? { token: secrets.token } : {}),
    ...(secrets.username ? { username: secrets.username } : {}),
  };
}

export async function getGitSync(ctx: ServiceContext, spaceId: string) {
  const { row: space, level } = await loadSpace(ctx.db, ctx, spaceId, 'admin', 'manage its Git Sync');
  const row = await repo.findGitSync(ctx.db, spaceId);
  if (!row) throw new NotFoundError('No Git Sync is set up on this space');
  return { space, level, ...(await syncView(ctx.db, row)) };
}

async function syncView(db: Executor, row: repo.GitSyncRow) {
  const secrets = await secretsOf(db, row);
  const lastRun = (await repo.listGitSyncRuns(db, row.space_id, undefined, 1))[0];
  const conflict = row.conflict_change_request_id
    ? await findChangeRequest(db, row.space_id, row.conflict_change_request_id)
    : undefined;
  return {
    row,
    hasToken: !!secrets.token,
    webhookSecret: secrets.webhookSecret,
    lastRun,
    conflictNumber: conflict?.status === 'open' ? conflict.number : undefined,
  };
}

/** Connects the space to a repository, or changes how; another repository, branch or folder starts afresh. */
export async function putGitSync(ctx: ServiceContext, deps: GitSyncDeps, spaceId: string, input: GitSyncSettingsBody) {
  const body = gitSyncSettingsBodySchema.parse(input);
  await loadSpace(ctx.db, ctx, spaceId, 'admin', 'manage its Git Sync');
  checkUrl(body.url, deps.allowPrivate);
  const { url, token: urlToken, username } = splitCredentials(body.url);
  const now = nowIso();
  await transaction(ctx.db, async (tx) => {
    const existing = await repo.lockGitSync(tx, spaceId);
    const previous = existing ? await secretsOf(tx, existing) : undefined;
    // A stored token goes only to the repository it was given for: pointing the sync elsewhere without a token of
    // its own (to a host of one's choosing) must not send it there.
    const kept = existing?.url === url ? previous : undefined;
    const token = body.token === null ? undefined : (body.token ?? urlToken ?? kept?.token);
    const secrets: Secrets = {
      webhookSecret: previous?.webhookSecret ?? newSecret('whsec_'),
      ...(token ? { token } : {}),
      ...(token && username ? { username } : {}),
    };
    const fields = {
      url,
      branch: body.branch,
      root: body.root,
      direction: body.direction,
      secrets: await encryptSecrets(tx, secrets as unknown as Record<string, string>),
      author_name: body.authorName || 'GitBook',
      author_email: body.authorEmail || 'gitbook@users.noreply.localhost',
      poll_minutes: body.pollMinutes,
      updated_at: now,
    };
    if (!existing) {
      await repo.insertGitSync(tx, {
        space_id: spaceId,
        ...fields,
        provider: providerOf(url),
        tree_url: treeUrlOf(url, body.branch, body.root),
        content_root: null,
        commit_oid: null,
        revision_id: null,
        conflict_change_request_id: null,
        synced_at: null,
        polled_at: null,
        created_by: ctx.actor.userId,
        created_at: now,
      });
      return;
    }
    // Another repository or folder starts afresh; another branch of the same keeps the path map (an export to a
    // new branch starts from the commit synced last).
    const moved = existing.url !== url || existing.root !== body.root;
    await repo.updateGitSync(tx, spaceId, {
      ...fields,
      provider: providerOf(url),
      tree_url: treeUrlOf(url, body.branch, body.root),
      // Whoever changes the settings is who the sync acts as from now on.
      created_by: ctx.actor.userId,
      ...(moved
        ? { commit_oid: null, revision_id: null, conflict_change_request_id: null, synced_at: null, content_root: null }
        : {}),
    });
    if (moved) await repo.replaceGitSyncPaths(tx, spaceId, []);
  });
  return getGitSync(ctx, spaceId);
}

export async function deleteGitSync(ctx: ServiceContext, deps: GitSyncDeps, spaceId: string): Promise<void> {
  await loadSpace(ctx.db, ctx, spaceId, 'admin', 'manage its Git Sync');
  if (!(await repo.findGitSync(ctx.db, spaceId))) throw new NotFoundError('No Git Sync is set up on this space');
  await transaction(ctx.db, (tx) => repo.deleteGitSync(tx, spaceId));
  // This process's copy of the repository goes too (another process's is only a cache, rebuilt if ever needed).
  await rm(deps.cacheDir(spaceId), { recursive: true, force: true });
}

/** Whether the repository opens with these settings: its branch's head, or what is wrong. Nothing is stored. */
export async function testGitSync(
  ctx: ServiceContext,
  deps: GitSyncDeps,
  spaceId: string,
  body: { url: string; branch: string; token?: string | null | undefined },
) {
  await loadSpace(ctx.db, ctx, spaceId, 'admin', 'manage its Git Sync');
  checkUrl(body.url, deps.allowPrivate);
  const remote = splitCredentials(body.url);
  if (body.token === undefined && !remote.token) {
    const row = await repo.findGitSync(ctx.db, spaceId);
    const stored = row ? await secretsOf(ctx.db, row) : undefined;
    if (row?.url === remote.url && stored?.token) remote.token = stored.token;
  } else if (body.token) remote.token = body.token;
  const cache = await GitRepository.open(deps.cacheDir(spaceId), { allowPrivate: deps.allowPrivate });
  try {
    const head = await cache.remoteHead(remote, body.branch);
    return head
      ? { ok: true, head, message: `Connected: ${body.branch} is at ${head.slice(0, 7)}` }
      : { ok: false, message: `Connected, but the repository has no branch ${body.branch}` };
  } catch (err) {
    if (err instanceof GitError) return { ok: false, message: err.message };
    throw err;
  }
}

function providerOf(url: string): string | null {
  const host = new URL(url).hostname;
  if (host === 'github.com') return 'github';
  if (host === 'gitlab.com' || host.startsWith('gitlab.')) return 'gitlab';
  return null;
}

/** The repository's web page of the synced folder, where forges have one at `<repo>/tree/<branch>/<folder>`. */
function treeUrlOf(url: string, branch: string, root: string): string | null {
  const provider = providerOf(url);
  if (!provider) return null;
  const base = url.replace(/\.git$/, '');
  const tree = provider === 'gitlab' ? '-/tree' : 'tree';
  return `${base}/${tree}/${encodeURIComponent(branch)}${root ? `/${root}` : ''}`;
}

/** The commit behind a revision (`revision.git`), when Git Sync imported or exported it. */
export async function revisionCommit(db: Executor, spaceId: string, revisionId: string) {
  const [row] = await repo.findGitSyncCommits(db, spaceId, [revisionId]);
  if (!row) return undefined;
  return {
    oid: row.oid,
    message: row.message,
    createdByService: row.created_by_gitbook === 1,
    createdByGitBook: row.created_by_gitbook === 1,
    ref: row.ref,
    ...(row.url ? { url: row.url } : {}),
  };
}

/**
 * Where a page of the space is edited on the forge ("Edit on GitHub", when the site's `git.showEditLink` is on):
 * its file on the synced branch, for GitHub and GitLab repositories (or a tree URL the API was given).
 */
export async function gitEditLink(
  db: Executor,
  spaceId: string,
  pageId: string,
): Promise<{ url: string; label: string } | undefined> {
  const sync = await repo.findGitSync(db, spaceId);
  if (!sync?.tree_url) return undefined;
  const path = await repo.findGitSyncPath(db, spaceId, 'page', pageId);
  if (!path) return undefined;
  const edit = sync.tree_url.replace(/\/(-\/)?tree\//, (_m, gitlab: string | undefined) => `/${gitlab ?? ''}edit/`);
  const file = [sync.content_root, path].filter(Boolean).join('/');
  const label =
    sync.provider === 'gitlab' ? 'Edit on GitLab' : sync.provider === 'github' ? 'Edit on GitHub' : 'Edit on Git';
  return { url: `${edit.replace(/\/+$/, '')}/${file.split('/').map(encodeURIComponent).join('/')}`, label };
}

/** Where each page, file and reusable content of a synced space is in the repository (`git {oid, path}`). */
export type GitRefLookup = (kind: repo.GitSyncPathRow['kind'], objectId: string) => GitFileRef | undefined;

/**
 * The `git` fields of a synced space's pages, files and reusable contents: their files as of the last sync (paths
 * from the repository's root, blob ids), or nothing for a space without Git Sync. `version` changes with each sync
 * (it is part of the cache keys of page trees); `load` reads the path map (of the objects named, or whole).
 */
export async function gitRefsOf(
  db: Executor,
  spaceId: string,
): Promise<{ version: string; load(ids?: string[]): Promise<GitRefLookup> } | undefined> {
  const sync = await repo.findGitSync(db, spaceId);
  if (!sync?.commit_oid) return undefined;
  const full = (p: string) => [sync.root, sync.content_root, p].filter(Boolean).join('/');
  return {
    version: `${sync.commit_oid}:${sync.synced_at ?? ''}`,
    async load(ids) {
      const map = new Map<string, GitFileRef>();
      const rows = ids ? await repo.listGitSyncPathsOf(db, spaceId, ids) : await repo.listGitSyncPaths(db, spaceId);
      for (const row of rows) {
        map.set(`${row.kind}:${row.object_id}`, { oid: row.blob_oid, path: full(row.path) });
      }
      return (kind, id) => map.get(`${kind}:${id}`);
    },
  };
}

/** The space's Git Sync, for its answer (`space.gitSync`), when it has one. */
export function gitSyncOf(db: Executor, spaceId: string) {
  return repo.findGitSync(db, spaceId);
}

/** The page an old path of the space leads to, by the synced repository's `.gitbook.yaml` redirects. */
export function gitRedirect(db: Executor, spaceId: string, path: string): Promise<string | undefined> {
  return repo.findGitSyncRedirect(db, spaceId, path.replace(/^\/+|\/+$/g, ''));
}

/** `GET …/git/info`: the GitSyncState of the contract. */
export async function getGitInfo(ctx: ServiceContext, spaceId: string) {
  await loadSpace(ctx.db, ctx, spaceId, 'view', 'view its Git Sync');
  const row = await repo.findGitSync(ctx.db, spaceId);
  if (!row) throw new NotFoundError('No Git provider currently set up on the space');
  return row;
}

export async function listGitSyncRuns(ctx: ServiceContext, spaceId: string, page: string | undefined, limit: number) {
  await loadSpace(ctx.db, ctx, spaceId, 'triggerGitSync', 'view its Git syncs');
  return keysetPage({
    page,
    limit,
    arity: 2,
    rows: (after, take) => repo.listGitSyncRuns(ctx.db, spaceId, after, take),
    count: () => repo.countGitSyncRuns(ctx.db, spaceId),
    key: (row) => [row.created_at, row.id],
  });
}

export async function getGitSyncRun(ctx: ServiceContext, spaceId: string, id: string) {
  await loadSpace(ctx.db, ctx, spaceId, 'triggerGitSync', 'view its Git syncs');
  const run = await repo.findGitSyncRun(ctx.db, spaceId, id);
  if (!run) throw new NotFoundError('Git sync run not found');
  return run;
}

/**
 * `POST …/git/import` and `…/git/export` (the contract's, 204 once started), and the console's "Sync now": the
 * sync is set up or updated from the request (its URL's credentials become the stored token), then queued.
 * Naming another repository than the one set up takes a space admin; syncing the one set up, `triggerGitSync`.
 */
export async function startGitOperation(
  ctx: ServiceContext,
  deps: GitSyncDeps,
  spaceId: string,
  direction: 'import' | 'export',
  body: ImportGitRepository | ExportToGitRepository | undefined,
  trigger: 'api' | 'manual' = 'api',
): Promise<repo.GitSyncRunRow> {
  const { level } = await loadSpace(ctx.db, ctx, spaceId, 'triggerGitSync', 'sync it with Git');
  const existing = await repo.findGitSync(ctx.db, spaceId);
  if (body) {
    checkUrl(body.url, deps.allowPrivate);
    const { url, token } = splitCredentials(body.url);
    const branch = body.ref.replace(/^refs\/heads\//, '');
    const root = body.repoProjectDirectory ?? existing?.root ?? '';
    const same = existing && existing.url === url && existing.branch === branch && existing.root === root;
    if (!same || token) {
      if (level !== 'admin') {
        throw new ForbiddenError('Only a space admin may connect the space to another repository, branch or folder');
      }
      await putGitSync(ctx, deps, spaceId, {
        url: body.url,
        branch,
        root,
        direction: existing?.direction ?? 'import',
        ...(existing ? { authorName: existing.author_name, authorEmail: existing.author_email } : {}),
        pollMinutes: existing?.poll_minutes ?? 0,
      });
    }
    if (body.gitInfo?.provider || body.gitInfo?.url || body.repoTreeURL) {
      await repo.updateGitSync(ctx.db, spaceId, {
        ...(body.gitInfo?.provider ? { provider: body.gitInfo.provider } : {}),
        ...(body.gitInfo?.url || body.repoTreeURL ? { tree_url: (body.gitInfo?.url ?? body.repoTreeURL)! } : {}),
      });
    }
  } else if (!existing) {
    throw new NotFoundError('No Git Sync is set up on this space');
  }
  const sync = (await repo.findGitSync(ctx.db, spaceId))!;
  const run = await transaction(ctx.db, (tx) =>
    queueGitSync(tx, spaceId, {
      direction,
      trigger,
      ref: `refs/heads/${sync.branch}`,
      userId: ctx.actor.userId,
      ...(body?.force ? { force: true } : {}),
      ...(body && 'standalone' in body && body.standalone ? { standalone: true } : {}),
      ...(body && 'commitMessage' in body ? { message: body.commitMessage } : {}),
    }),
  );
  wakeJobQueues();
  return run;
}

/**
 * The user a sync writes as: who set it up, while they may still merge in the space; an integration that set it
 * up (`space:git:sync`) acts for its installation in the space's organization while it is installed there.
 */
async function syncActor(db: Executor, row: repo.GitSyncRow, organizationId: string): Promise<Actor> {
  const account = await findUserById(db, row.created_by);
  if (!account || !isIntegrationAccountEmail(account.email)) return { userId: row.created_by };
  const integration = await integrationActorOfAccount(db, account.id, organizationId, 'space:git:sync');
  if (!integration) {
    throw new ConflictError(
      `${account.display_name}, the integration that set up this Git Sync, is no longer installed: set it up again`,
    );
  }
  return { userId: account.id, integration };
}

/** The job of a run (see the top of this file). */
export function gitSyncJobHandler(db: Db, deps: GitSyncDeps): JobHandler {
  const finish = async (runId: string, patch: Partial<repo.GitSyncRunRow>) => {
    if (patch.status !== 'failure' && patch.status !== 'success') {
      return repo.updateGitSyncRun(db, runId, { ...patch, updated_at: nowIso() });
    }
    // A run's end is told, with the change that records it, to the integrations installed on the space
    // (`space_gitsync_completed`), and a failure to whoever started the sync.
    await transaction(db, async (tx) => {
      await repo.updateGitSyncRun(tx, runId, { ...patch, updated_at: nowIso() });
      const run = await repo.findGitSyncRunById(tx, runId);
      const space = run && (await findSpace(tx, run.space_id));
      if (!run || !space) return;
      if (patch.status === 'failure') {
        await recordEvent(tx, {
          kind: 'git-sync-failed',
          organizationId: space.organization_id,
          spaceId: space.id,
          data: { starter: run.created_by, ...(patch.error ? { error: patch.error.slice(0, 300) } : {}) },
        });
      }
      await queueSpaceEvent(tx, space, {
        type: 'space_gitsync_completed',
        state: patch.status,
        revisionId: run.revision_id ?? space.revision_id,
        commitId: run.commit_oid ?? '',
      });
    });
  };
  return {
    attempts: ATTEMPTS,
    async run(raw) {
      const payload = raw as GitSyncJobPayload;
      const run = await repo.findGitSyncRun(db, payload.spaceId, payload.runId);
      if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
      const sync = await repo.findGitSync(db, payload.spaceId);
      if (!sync) return finish(run.id, { status: 'failure', error: 'Git Sync was removed from the space' });
      await finish(run.id, { status: 'running' });
      try {
        const space = await findSpace(db, payload.spaceId);
        if (!space) return await finish(run.id, { status: 'failure', error: 'The space is gone' });
        const ctx: ServiceContext = { db, urls: deps.urls, actor: await syncActor(db, sync, space.organization_id) };
        if (run.direction === 'import') {
          const outcome = await importCommit(ctx, deps, payload.spaceId, {
            runId: run.id,
            remote: await remoteOf(db, sync),
            ref: sync.branch,
            root: sync.root,
            force: !!payload.force,
            ...(payload.standalone ? { standalone: true } : {}),
          });
          await finish(run.id, {
            status: outcome.status,
            commit_oid: outcome.commit,
            message: outcome.message,
            ...(outcome.status === 'success' ? { revision_id: outcome.revision } : {}),
            ...(outcome.status === 'conflict' ? { change_request_id: outcome.changeRequestId } : {}),
          });
        } else {
          const user = await findUserById(db, run.created_by);
          const outcome = await exportSpace(ctx, deps, payload.spaceId, {
            runId: run.id,
            remote: await remoteOf(db, sync),
            branch: sync.branch,
            root: sync.root,
            message: run.message ?? 'GitBook: No commit message',
            // (An integration's account has no address: the sync's author stands for it.)
            author:
              user && !isIntegrationAccountEmail(user.email)
                ? { name: user.display_name, email: user.email }
                : { name: sync.author_name, email: sync.author_email },
            committer: { name: sync.author_name, email: sync.author_email },
          });
          await finish(run.id, {
            status: outcome.status,
            ...(outcome.commit ? { commit_oid: outcome.commit } : {}),
            message: outcome.message,
            ...(outcome.status === 'success' ? { revision_id: outcome.revision } : {}),
            ...(outcome.status === 'conflict' ? { change_request_id: outcome.changeRequestId } : {}),
          });
        }
      } catch (err) {
        // What a user can fix (credentials, branch, a refused address, bad content) fails the run at once.
        if (err instanceof GitError && err.kind !== 'failed' && err.kind !== 'timeout') {
          return finish(run.id, { status: 'failure', error: err.message });
        }
        if (
          err instanceof DomainError &&
          (err.status === 403 || err.status === 404) &&
          !(err instanceof InvalidError)
        ) {
          // The space, as the person the sync acts as sees it: they left, or lost the right to merge.
          return finish(run.id, {
            status: 'failure',
            error: `${err.message}: Git Sync acts as the space admin who saved its settings last, who can no longer merge here; a space admin must save the settings again`,
          });
        }
        if (err instanceof DomainError && err.status < 500) {
          return finish(run.id, { status: 'failure', error: err.message.replace(/^url: /, '') });
        }
        if (err instanceof BranchMovedError) await finish(run.id, { status: 'queued' });
        else
          await finish(run.id, {
            status: 'running',
            error: `Retrying after: ${err instanceof Error ? redactUrl(err.message) : String(err)}`,
          });
        throw err;
      }
    },
    async giveUp(raw, error) {
      const payload = raw as GitSyncJobPayload;
      const message = error instanceof Error ? error.message : String(error);
      await finish(payload.runId, { status: 'failure', error: `The sync failed: ${message}` });
    },
  };
}
