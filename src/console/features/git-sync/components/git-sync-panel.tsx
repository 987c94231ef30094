import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import type { GitSyncRun } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyField } from '../../../components/ui/copy-field';
import { Card } from '../../../components/ui/page';
import { ErrorState, FormError, Loading } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDisconnectGitSync, useGitInfo, useGitSyncRuns, useGitSyncSettings, useRunGitSync } from '../api/git-sync';
import { GitSyncDialog } from '../forms/git-sync-dialog';
import '../git-sync.css';

const STATUS: Record<GitSyncRun['status'], { label: string; badge: string }> = {
  queued: { label: 'Queued', badge: 'badge' },
  running: { label: 'Running', badge: 'badge' },
  success: { label: 'Done', badge: 'badge badge-public' },
  skipped: { label: 'Up to date', badge: 'badge' },
  conflict: { label: 'Conflict', badge: 'badge badge-warning' },
  failure: { label: 'Failed', badge: 'badge badge-danger' },
};

const TRIGGER: Record<GitSyncRun['trigger'], string> = {
  api: 'through the API',
  manual: 'by hand',
  webhook: 'by a push (webhook)',
  poll: 'by a push (polling)',
  merge: 'by a merge',
};

interface Props {
  organizationId: string;
  spaceId: string;
  admin: boolean;
  /** `permissions.triggerGitSync`: may sync now and see the runs. */
  canSync: boolean;
}

/**
 * The space's Git Sync: the repository it mirrors, how, its webhook, its latest syncs, and buttons to sync now,
 * change the settings or disconnect (admins set it up; editors sync and follow it).
 */
export function GitSyncPanel({ organizationId, spaceId, admin, canSync }: Props) {
  const info = useGitInfo(spaceId);
  const settings = useGitSyncSettings(spaceId, admin);
  const connected = !!info.data;
  const runs = useGitSyncRuns(spaceId, canSync && connected);
  const run = useRunGitSync(spaceId);
  const disconnect = useDisconnectGitSync(spaceId);
  const toast = useToast();
  const [dialog, setDialog] = useState<'settings' | 'disconnect' | null>(null);
  const settingsButton = useRef<HTMLButtonElement>(null);
  const disconnectButton = useRef<HTMLButtonElement>(null);
  const s = settings.data;
  const busy = runs.data?.items.some((r) => r.status === 'queued' || r.status === 'running');

  if (info.isPending || (admin && settings.isPending)) {
    return (
      <Card title="Git Sync">
        <Loading label="Loading Git Sync…" />
      </Card>
    );
  }
  if (info.isError) {
    return (
      <Card title="Git Sync">
        <ErrorState error={info.error} onRetry={() => void info.refetch()} />
      </Card>
    );
  }
  const syncNow = (direction: 'import' | 'export') =>
    run.mutate(direction, {
      onSuccess: () =>
        toast.show(direction === 'import' ? 'Sync from the repository started' : 'Push to the repository started'),
    });

  return (
    <Card title="Git Sync">
      {!connected ? (
        <div className="section-header">
          <p className="section-text">
            Keep this space in a Git repository: developers change the docs in pull requests next to the code, writers
            here, and both see each other's work.
          </p>
          {admin && (
            <Button ref={settingsButton} variant="primary" onClick={() => setDialog('settings')}>
              Connect a repository
            </Button>
          )}
        </div>
      ) : (
        <div className="git-sync">
          <dl className="member-facts git-sync-facts">
            <dt>Repository</dt>
            <dd>{s ? s.url : info.data!.repoName}</dd>
            {s && (
              <>
                <dt>Branch and folder</dt>
                <dd>
                  {s.branch}
                  {s.root ? `, ${s.root}/` : ', the whole repository'}
                </dd>
                <dt>Direction</dt>
                <dd>{s.direction === 'two-way' ? 'Both ways: merges are pushed' : 'From the repository only'}</dd>
                <dt>Last sync</dt>
                <dd>
                  {s.syncedAt && s.commit ? (
                    <>
                      <code>{s.commit.slice(0, 7)}</code>, <RelativeTime value={s.syncedAt} />
                    </>
                  ) : (
                    'Never'
                  )}
                </dd>
              </>
            )}
          </dl>
          {s?.conflictChangeRequest !== undefined && (
            <p className="git-sync-conflict" role="status">
              The repository's last changes conflict with edits made here. They wait in{' '}
              <Link
                to="/o/$organizationId/spaces/$spaceId/change-requests/$number/conflicts"
                params={{ organizationId, spaceId, number: s.conflictChangeRequest }}
              >
                change request #{s.conflictChangeRequest}
              </Link>
              : resolve and merge it; pushes wait until then.
            </p>
          )}
          {(canSync || admin) && (
            <div className="page-actions">
              {canSync && (
                <Button variant="primary" loading={run.isPending} disabled={busy} onClick={() => syncNow('import')}>
                  Sync now
                </Button>
              )}
              {canSync && s?.direction === 'two-way' && (
                <Button loading={run.isPending} disabled={busy} onClick={() => syncNow('export')}>
                  Push the space now
                </Button>
              )}
              {admin && (
                <Button ref={settingsButton} onClick={() => setDialog('settings')}>
                  Settings
                </Button>
              )}
              {admin && (
                <Button ref={disconnectButton} variant="danger" onClick={() => setDialog('disconnect')}>
                  Disconnect
                </Button>
              )}
            </div>
          )}
          <FormError message={run.isError ? errorMessage(run.error) : undefined} />
          {s && (
            <div className="git-sync-webhook">
              <p className="field-hint">
                For pushes to reach the space at once, add a webhook to the repository (push events, content type
                application/json) with this URL and secret:
              </p>
              <CopyField label="Webhook URL" value={s.webhook.url} />
              <CopyField label="Webhook secret" value={s.webhook.secret} />
            </div>
          )}
          {canSync && <Runs runs={runs} />}
        </div>
      )}
      {admin && (
        <GitSyncDialog
          spaceId={spaceId}
          settings={s}
          open={dialog === 'settings'}
          onOpenChange={(open) => setDialog(open ? 'settings' : null)}
          returnFocusRef={settingsButton}
        />
      )}
      <ConfirmDialog
        open={dialog === 'disconnect'}
        onOpenChange={(open) => setDialog(open ? 'disconnect' : null)}
        returnFocusRef={disconnectButton}
        title="Disconnect the repository?"
        confirmLabel="Disconnect"
        action={async () => {
          await disconnect.mutateAsync();
          toast.show('The space is no longer synced with Git');
        }}
      >
        <p>
          Commits will no longer come into the space, nor merges go to the repository. The space keeps its content, and
          the repository its commits; its token and webhook secret are deleted.
        </p>
      </ConfirmDialog>
    </Card>
  );
}

function Runs({ runs }: { runs: ReturnType<typeof useGitSyncRuns> }) {
  if (runs.isPending) return <Loading label="Loading syncs…" />;
  if (runs.isError) return <ErrorState error={runs.error} onRetry={() => void runs.refetch()} />;
  if (!runs.data.items.length) return <p className="section-text">No sync yet.</p>;
  return (
    <ol className="git-sync-runs" aria-label="Latest syncs">
      {runs.data.items.map((r) => (
        <li key={r.id}>
          <span className={STATUS[r.status].badge}>{STATUS[r.status].label}</span>{' '}
          <span>
            {r.direction === 'import' ? 'From the repository' : 'To the repository'} {TRIGGER[r.trigger]}
            {r.commit && (
              <>
                {' '}
                · <code>{r.commit.slice(0, 7)}</code>
              </>
            )}
          </span>{' '}
          <span className="team-meta">
            <RelativeTime value={r.updatedAt} />
          </span>
          {(r.error ?? r.message) && <p className={r.error ? 'field-error' : 'field-hint'}>{r.error ?? r.message}</p>}
        </li>
      ))}
    </ol>
  );
}
