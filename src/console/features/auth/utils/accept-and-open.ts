import { useNavigate } from '@tanstack/react-router';
import type { UserInvitation } from '../../../../shared/contract';
import { useToast } from '../../../components/ui/toast';
import { useAcceptInvitation } from '../api/accept-invitation';

/**
 * Accepting an invitation, then opening its organization: the organizations are asked again first, so the
 * switcher lists the new one when the page opens.
 */
export function useAcceptAndOpen() {
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const toast = useToast();
  return {
    /** The invitation being accepted. */
    pendingId: accept.isPending ? accept.variables.id : undefined,
    accept: async (invitation: UserInvitation) => {
      const { organization } = await accept.mutateAsync(invitation);
      toast.show(`You joined ${invitation.organization.title}`);
      await navigate({ to: '/o/$organizationId', params: { organizationId: organization } });
    },
  };
}
