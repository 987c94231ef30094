import { useEffect, useState } from 'react';
import { createFileRoute, useRouter } from '@tanstack/react-router';
import { ID_MAX } from '../../shared/contract/constants';
import { AuthLayout } from '../components/layout/auth-layout';
import { DocumentTitle } from '../components/ui/page';
import { rememberedInvitationSecret, rememberInvitationSecret } from '../features/auth/api/email-invitation';
import { EmailInvitation } from '../features/auth/components/email-invitation';
import { useToast } from '../components/ui/toast';
import { pathParams } from './-url';
import { forgetLinkSecret, linkSecret } from '../lib/link-secret';

/** `/invitations/$invitationId#<secret>`: where an invitation by e-mail leads (the server writes these links). */
export const Route = createFileRoute('/invitations/$invitationId')({
  params: { parse: pathParams({ invitationId: ID_MAX }) },
  component: InvitationPage,
});

/** The secret from the link's fragment, or kept from an earlier visit of this tab (signing in left the page). */
function secretFor(invitationId: string): string | null {
  const fromLink = linkSecret();
  if (fromLink) {
    rememberInvitationSecret(invitationId, fromLink);
    return fromLink;
  }
  return rememberedInvitationSecret(invitationId);
}

function InvitationPage() {
  const { invitationId } = Route.useParams();
  const [token] = useState(() => secretFor(invitationId));
  const router = useRouter();
  const toast = useToast();
  // The secret leaves the address bar (and the history) once read.
  useEffect(() => {
    forgetLinkSecret();
  }, []);
  const here = router.buildLocation({ to: Route.fullPath, params: { invitationId } }).href;
  return (
    <AuthLayout title="Join an organization" subtitle="You were invited to a documentation workspace.">
      <DocumentTitle>Invitation</DocumentTitle>
      <EmailInvitation
        invitationId={invitationId}
        token={token}
        here={here}
        onJoined={(organizationId) => {
          toast.show('You joined the organization');
          void router.navigate({ to: '/o/$organizationId', params: { organizationId }, replace: true });
        }}
      />
    </AuthLayout>
  );
}
