import { useId, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { UserInvitation } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { UserIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState, FormError, Loading } from '../../../components/ui/states';
import { RelativeTime } from '../../../components/ui/time';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeclineInvitation } from '../api/decline-invitation';
import { useMyInvitations } from '../api/get-invitations';
import { useAcceptAndOpen } from '../utils/accept-and-open';
import { invitationDetails } from '../utils/invitations';
import '../auth.css';

/** Says what declining does; shared by the account menu and the account page. */
export function DeclineInvitationDialog({
  invitation,
  ...props
}: {
  invitation: UserInvitation | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}) {
  const decline = useDeclineInvitation();
  const toast = useToast();
  return (
    <ConfirmDialog
      {...props}
      title="Decline invitation?"
      confirmLabel="Decline invitation"
      action={async () => {
        if (!invitation) return;
        await decline.mutateAsync(invitation);
        toast.show(`Invitation to ${invitation.organization.title} declined`);
      }}
    >
      {invitation && (
        <p>
          You will not join <strong>{invitation.organization.title}</strong>. Its administrators can invite you again.
        </p>
      )}
    </ConfirmDialog>
  );
}

/** The signed-in person's pending invitations, to accept (then open the organization) or decline. */
export function PendingInvitations() {
  const invitations = useMyInvitations();
  if (invitations.isPending) return <Loading label="Loading invitations…" />;
  if (invitations.isError) return <ErrorState error={invitations.error} onRetry={() => void invitations.refetch()} />;
  if (invitations.data.length === 0) {
    return (
      <EmptyState icon={<UserIcon width={28} height={28} />} title="No pending invitations" level={3}>
        When an administrator invites your e-mail address to an organization, the invitation waits here and in your
        account menu until you accept or decline it.
      </EmptyState>
    );
  }
  return (
    <ul className="invitation-list" aria-label="Pending invitations">
      {invitations.data.map((invitation) => (
        <InvitationItem key={invitation.id} invitation={invitation} />
      ))}
    </ul>
  );
}

function InvitationItem({ invitation }: { invitation: UserInvitation }) {
  const id = useId();
  const { accept, pendingId } = useAcceptAndOpen();
  const [error, setError] = useState<string>();
  const [declining, setDeclining] = useState(false);
  const declineButton = useRef<HTMLButtonElement>(null);
  const title = invitation.organization.title;
  return (
    <li className="invitation-item" aria-labelledby={`${id}-title`}>
      <div className="invitation-text">
        <span id={`${id}-title`} className="invitation-title">
          {title}
        </span>
        <span className="invitation-meta">
          {invitationDetails(invitation)} · <RelativeTime value={invitation.createdAt} />
        </span>
      </div>
      <div className="invitation-actions">
        <Button
          variant="primary"
          size="sm"
          loading={pendingId === invitation.id}
          aria-label={`Accept the invitation to ${title}`}
          onClick={() => {
            setError(undefined);
            accept(invitation).catch((failure: unknown) => setError(errorMessage(failure)));
          }}
        >
          Accept
        </Button>
        <Button
          ref={declineButton}
          size="sm"
          aria-label={`Decline the invitation to ${title}`}
          onClick={() => setDeclining(true)}
        >
          Decline
        </Button>
      </div>
      <FormError message={error} />
      <DeclineInvitationDialog
        invitation={invitation}
        open={declining}
        onOpenChange={setDeclining}
        returnFocusRef={declineButton}
      />
    </li>
  );
}
