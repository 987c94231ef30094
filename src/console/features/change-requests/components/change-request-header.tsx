import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { ChangeRequest } from '../../../../shared/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  useMenuDialogs,
} from '../../../components/ui/dropdown-menu';
import { MoreIcon } from '../../../components/ui/icons';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { ExportPdfButton } from './export-pdf-button';
import { useChangeRequest } from '../api/get-change-request';
import { useUpdateChangeRequest } from '../api/update-change-request';
import { RenameChangeRequestDialog } from '../forms/rename-change-request-dialog';
import { changeRequestTitle, plural, STATUS_LABELS } from '../utils/labels';
import '../change-requests.css';

interface Props {
  organizationId: string;
  spaceId: string;
  number: number;
}

/** Subject, number, status and who did what, with the change request's actions. */
export function ChangeRequestHeader({
  organizationId,
  spaceId,
  number,
  actions,
}: Props & {
  /** More actions, before the export and "…" menu (e.g. "Import", from another feature). */
  actions?: (changeRequest: ChangeRequest) => ReactNode;
}) {
  const changeRequest = useChangeRequest(spaceId, number);
  const { status, createdBy } = changeRequest;
  return (
    <header className="cr-header">
      <p className="cr-header-back">
        <Link to="/o/$organizationId/spaces/$spaceId/change-requests" params={{ organizationId, spaceId }}>
          ← All change requests
        </Link>
      </p>
      <div className="cr-header-row">
        <div className="cr-header-text">
          <h2 className="cr-title">
            {changeRequestTitle(changeRequest)} <span className="cr-number">#{number}</span>
          </h2>
          <p className="cr-meta">
            <span className={`badge cr-badge-${status}`}>{STATUS_LABELS[status].label}</span>
            {status === 'merged' && changeRequest.mergedAt ? (
              <span>
                Merged by {changeRequest.mergedBy?.displayName ?? 'someone'}{' '}
                <RelativeTime value={changeRequest.mergedAt} />
              </span>
            ) : (
              <span>
                Started by {createdBy.displayName} <RelativeTime value={changeRequest.createdAt} />, updated{' '}
                <RelativeTime value={changeRequest.updatedAt} />
              </span>
            )}
            {changeRequest.conflicts > 0 && (
              <span className="badge badge-danger">{plural(changeRequest.conflicts, 'conflict')}</span>
            )}
            {changeRequest.outdated && <span className="badge badge-warning">Outdated</span>}
          </p>
        </div>
        <div className="page-actions">
          {actions?.(changeRequest)}
          <ExportPdfButton changeRequest={changeRequest} />
          <ChangeRequestActions changeRequest={changeRequest} />
        </div>
      </div>
    </header>
  );
}

function ChangeRequestActions({ changeRequest }: { changeRequest: ChangeRequest }) {
  const { trigger, openDialog, onCloseAutoFocus, dialog } = useMenuDialogs<'rename' | 'archive'>();
  const update = useUpdateChangeRequest(changeRequest.space, changeRequest.number);
  const toast = useToast();
  if (!changeRequest.permissions.edit || changeRequest.status === 'merged') return null;
  const setStatus = (status: 'draft' | 'open', done: string) =>
    update.mutate(
      { status },
      { onSuccess: () => toast.show(done), onError: (error) => toast.show(errorMessage(error), 'error') },
    );
  const { status } = changeRequest;
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          ref={trigger}
          className="btn btn-ghost btn-sm btn-icon"
          aria-label={`Actions for change request #${changeRequest.number}`}
        >
          <MoreIcon />
        </DropdownMenuTrigger>
        <DropdownMenuContent onCloseAutoFocus={onCloseAutoFocus}>
          <DropdownMenuItem onSelect={() => openDialog('rename')}>Change subject…</DropdownMenuItem>
          {status === 'draft' && (
            <DropdownMenuItem onSelect={() => setStatus('open', 'Ready for review')}>Ready for review</DropdownMenuItem>
          )}
          {status === 'open' && (
            <DropdownMenuItem onSelect={() => setStatus('draft', 'Back to draft')}>Back to draft</DropdownMenuItem>
          )}
          {status === 'archived' ? (
            <DropdownMenuItem onSelect={() => setStatus('open', 'Change request reopened')}>Reopen</DropdownMenuItem>
          ) : (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem danger onSelect={() => openDialog('archive')}>
                Archive…
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <RenameChangeRequestDialog changeRequest={changeRequest} {...dialog('rename')} />
      <ConfirmDialog
        {...dialog('archive')}
        title="Archive this change request?"
        confirmLabel="Archive"
        action={async () => {
          await update.mutateAsync({ status: 'archived' });
          toast.show('Change request archived');
        }}
      >
        <p>
          <strong>“{changeRequestTitle(changeRequest)}”</strong> will no longer be listed as open and cannot be merged.
          Its changes are kept: you can reopen it later.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The change request's sections: its review, its editor, and its conflicts while there are some. */
export function ChangeRequestNav({ organizationId, spaceId, number }: Props) {
  const changeRequest = useChangeRequest(spaceId, number);
  const params = { organizationId, spaceId, number };
  const active = { className: 'active' };
  const editable = changeRequest.status === 'open' || changeRequest.status === 'draft';
  return (
    <nav className="subtabs" aria-label="Change request sections">
      <Link
        to="/o/$organizationId/spaces/$spaceId/change-requests/$number"
        params={params}
        className="subtab"
        activeOptions={{ exact: true }}
        activeProps={active}
      >
        Review
      </Link>
      <Link
        to="/o/$organizationId/spaces/$spaceId/change-requests/$number/pages"
        params={params}
        className="subtab"
        activeProps={active}
      >
        {editable && changeRequest.permissions.edit ? 'Edit pages' : 'Pages'}
      </Link>
      {changeRequest.conflicts > 0 && (
        <Link
          to="/o/$organizationId/spaces/$spaceId/change-requests/$number/conflicts"
          params={params}
          className="subtab"
          activeProps={active}
        >
          Conflicts <span className="tab-count tab-count-danger">{changeRequest.conflicts}</span>
        </Link>
      )}
    </nav>
  );
}
