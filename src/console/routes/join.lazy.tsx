import { useRouter } from '@tanstack/react-router';
import { AuthLayout } from '../components/layout/auth-layout';
import { DocumentTitle } from '../components/ui/page';
import { JoinOrganization } from '../features/auth/components/join-organization';
import { joinRoute } from './join';

export function JoinPage() {
  const { organizationId, inviteId } = joinRoute.useParams();
  const router = useRouter();
  const here = router.buildLocation({ to: joinRoute.fullPath, params: { organizationId, inviteId } }).href;
  return (
    <AuthLayout title="Join an organization" subtitle="You were invited to a documentation workspace.">
      <DocumentTitle>Join an organization</DocumentTitle>
      <JoinOrganization
        organizationId={organizationId}
        inviteId={inviteId}
        here={here}
        onJoined={() => void router.navigate({ to: '/o/$organizationId', params: { organizationId }, replace: true })}
      />
    </AuthLayout>
  );
}
