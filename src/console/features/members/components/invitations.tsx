import { useId, useRef, useState } from 'react';
import type { OrgInvitation, RoleOrGuest } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PlusIcon } from '../../../components/ui/icons';
import { ErrorState, Spinner } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { roleLabel } from '../../../lib/roles';
import { useOrgInvitations } from '../api/get-org-invitations';
import { useRevokeInvitation } from '../api/revoke-invitation';
import { useResendInvitation } from '../api/resend-invitation';
import { errorMessage } from '../../../lib/api-client';
import { InviteByEmailDialog } from '../forms/invite-by-email-dialog';
import '../members.css';

/**
 * The organization's pending invitations by e-mail (admins), and the "Invite by e-mail" button. Invited people are
 * not members until they accept: they are listed here, never in the members table.
 */
export function Invitations({ organizationId, defaultRole }: { organizationId: string; defaultRole: RoleOrGuest }) {
  const id = useId();
  const invitations = useOrgInvitations(organizationId);
  const [inviting, setInviting] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const count = invitations.data?.length ?? 0;
  return (
    <section className="invited" aria-labelledby={`${id}-title`}>
      <div className="section-header">
        <div className="invited-heading">
          <h2 id={`${id}-title`} className="section-title">
            Invited
            {count > 0 && <span className="section-count">{count}</span>}
            {invitations.isFetching && <Spinner />}
          </h2>
          {invitations.isSuccess && count === 0 && (
            <p className="section-text">
              Nobody is invited right now. Invite people by e-mail (each gets a link that works for two weeks), or share
              an invite link.
            </p>
          )}
        </div>
        <Button ref={button} variant="primary" onClick={() => setInviting(true)}>
          <PlusIcon /> Invite by e-mail
        </Button>
      </div>
      {invitations.isError ? (
        <ErrorState error={invitations.error} onRetry={() => void invitations.refetch()} />
      ) : (
        count > 0 && (
          <ul className="panel invited-list" aria-label="Invited people">
            {invitations.data?.map((invitation) => (
              <InvitationRow key={invitation.id} organizationId={organizationId} invitation={invitation} />
            ))}
          </ul>
        )
      )}
      <InviteByEmailDialog
        organizationId={organizationId}
        defaultRole={defaultRole}
        open={inviting}
        onOpenChange={setInviting}
        returnFocusRef={button}
      />
    </section>
  );
}

function InvitationRow({ organizationId, invitation }: { organizationId: string; invitation: OrgInvitation }) {
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const revoke = useRevokeInvitation(organizationId);
  const resend = useResendInvitation(organizationId);
  const toast = useToast();
  return (
    <li className="invited-item">
      <span className="invited-email">{invitation.email}</span>
      <span className="invited-meta">
        {roleLabel(invitation.role)} · invited <RelativeTime value={invitation.createdAt} /> ·{' '}
        {invitation.expired ? (
          <span className="badge badge-warning">Expired</span>
        ) : (
          <>
            expires <RelativeTime value={invitation.expiresAt} />
          </>
        )}
      </span>
      <Button
        size="sm"
        variant="ghost"
        aria-label={`Resend the invitation of ${invitation.email}`}
        loading={resend.isPending}
        onClick={() =>
          resend.mutate(invitation, {
            onSuccess: () => toast.show(`Invitation sent again to ${invitation.email}`),
            onError: (error) => toast.show(errorMessage(error), 'error'),
          })
        }
      >
        Resend
      </Button>
      <Button
        ref={button}
        size="sm"
        variant="ghost"
        aria-label={`Revoke the invitation of ${invitation.email}`}
        onClick={() => setConfirming(true)}
      >
        Revoke
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        returnFocusRef={button}
        title="Revoke invitation?"
        confirmLabel="Revoke invitation"
        action={async () => {
          await revoke.mutateAsync(invitation);
          toast.show(`Invitation of ${invitation.email} revoked`);
        }}
      >
        <p>
          <strong>{invitation.email}</strong> will no longer see the invitation, and its link stops working. You can
          invite them again.
        </p>
      </ConfirmDialog>
    </li>
  );
}
