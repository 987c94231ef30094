import crypto from 'node:crypto';
import type { Db } from '../../storage/db.js';
import { transaction } from '../../storage/db.js';
import * as repo from '../../storage/repos/git-sync.js';
import { wakeJobQueues } from '../../jobs/queue.js';
import { decryptSecrets } from '../integrations/secrets.js';
import { UnauthorizedError } from '../errors.js';
import { GitRepository } from '../../lib/git.js';
import { queueGitSync } from './queue.js';
import { remoteOf } from './service.js';
import type { GitImportSettings } from './import.js';

/**
 * A push reaches the space: a forge's webhook (GitHub, GitLab, Gitea, Forgejo), or a look at the branch every so
 * often (polling). Either only wakes the sync up: the import fetches the branch and takes its tip, whatever the
 * payload said. Pushes to other branches, of the commit synced last, or of a commit this server pushed itself
 * (its own exports) change nothing.
 */

const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

/**
 * Whether the request is signed with the space's webhook secret, as one of the forges signs: GitHub's (and
 * Gitea's, Forgejo's) `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the body>`, Gitea's and Forgejo's
 * `X-Gitea-Signature` / `X-Forgejo-Signature` (the hex alone), GitLab's `X-Gitlab-Token` (the secret itself).
 */
export function verifyWebhook(secret: string, raw: string, headers: Record<string, string | string[] | undefined>) {
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const hmac = crypto.createHmac('sha256', secret).update(raw).digest('hex');
  const hub = header('x-hub-signature-256');
  if (hub !== undefined && equal(hub, `sha256=${hmac}`)) return true;
  for (const name of ['x-forgejo-signature', 'x-gitea-signature', 'x-gogs-signature']) {
    const value = header(name);
    if (value !== undefined && equal(value, hmac)) return true;
  }
  const token = header('x-gitlab-token');
  return token !== undefined && equal(token, secret);
}

export type WebhookOutcome =
  { result: 'queued'; run: string } | { result: 'ignored'; reason: string } | { result: 'pong' };

/** Handles a forge's webhook call for the space (see the top of this file). */
export async function receiveWebhook(
  db: Db,
  spaceId: string,
  raw: string,
  headers: Record<string, string | string[] | undefined>,
): Promise<WebhookOutcome> {
  const sync = await repo.findGitSync(db, spaceId);
  // No sync and a wrong signature are one answer: the endpoint tells nothing about spaces to who has no secret.
  const secrets = sync ? ((await decryptSecrets(db, sync.secrets)) as { webhookSecret?: string }) : undefined;
  if (!sync || !secrets?.webhookSecret || !verifyWebhook(secrets.webhookSecret, raw, headers)) {
    throw new UnauthorizedError('The webhook signature does not match (check the secret given to the forge)');
  }
  const event = String(headers['x-github-event'] ?? headers['x-gitea-event'] ?? headers['x-forgejo-event'] ?? '');
  if (event === 'ping') return { result: 'pong' };
  let payload: { ref?: unknown; after?: unknown; checkout_sha?: unknown; object_kind?: unknown };
  try {
    payload = JSON.parse(raw) as typeof payload;
  } catch {
    return { result: 'ignored', reason: 'the body is not JSON' };
  }
  const gitlab = headers['x-gitlab-event'] !== undefined;
  if ((gitlab && payload.object_kind !== 'push') || (!gitlab && event && event !== 'push')) {
    return { result: 'ignored', reason: `not a push (${gitlab ? String(payload.object_kind) : event})` };
  }
  if (payload.ref !== `refs/heads/${sync.branch}`) {
    return { result: 'ignored', reason: `a push to ${String(payload.ref)}, not to ${sync.branch}` };
  }
  const after = typeof payload.after === 'string' ? payload.after : '';
  if (/^0+$/.test(after)) return { result: 'ignored', reason: 'the branch was deleted' };
  if (after && (after === sync.commit_oid || (await repo.isOwnCommit(db, spaceId, after)))) {
    return { result: 'ignored', reason: 'this commit is synced already' };
  }
  const run = await transaction(db, (tx) =>
    queueGitSync(tx, spaceId, {
      direction: 'import',
      trigger: 'webhook',
      ref: `refs/heads/${sync.branch}`,
      userId: sync.created_by,
    }),
  );
  wakeJobQueues();
  return { result: 'queued', run: run.id };
}

/** Syncs looked at per round, at most (the oldest looked at first). */
const POLLS_PER_ROUND = 50;

/**
 * One round of polling: each sync whose interval has passed since its last look asks its branch's head (one
 * small request, `git ls-remote`) and queues an import when it moved. Whichever process claims a sync's look
 * (its `polled_at` moved from the value it read) makes it; the others skip it.
 */
export async function pollGitSyncs(db: Db, settings: GitImportSettings, now = Date.now()): Promise<number> {
  let queued = 0;
  for (const due of await repo.listDuePolls(db, POLLS_PER_ROUND)) {
    const last = due.polled_at ? Date.parse(due.polled_at) : 0;
    if (now - last < due.poll_minutes * 60_000) continue;
    if (!(await repo.claimGitSyncPoll(db, due.space_id, due.polled_at, new Date(now).toISOString()))) continue;
    const sync = await repo.findGitSync(db, due.space_id);
    if (!sync) continue;
    try {
      const cache = await GitRepository.open(settings.cacheDir(sync.space_id), { allowPrivate: settings.allowPrivate });
      const head = await cache.remoteHead(await remoteOf(db, sync), sync.branch);
      if (!head || head === sync.commit_oid || (await repo.isOwnCommit(db, sync.space_id, head))) continue;
    } catch {
      // Unreachable or refused: the import says why, in a run the panel shows.
    }
    await transaction(db, (tx) =>
      queueGitSync(tx, sync.space_id, {
        direction: 'import',
        trigger: 'poll',
        ref: `refs/heads/${sync.branch}`,
        userId: sync.created_by,
      }),
    );
    queued++;
  }
  if (queued) wakeJobQueues();
  return queued;
}
