import { createFileRoute, useRouter } from '@tanstack/react-router';
import { ID_MAX, INVITE_ID_MAX } from '../../shared/contract/constants';
import { AuthLayout } from '../components/layout/auth-layout';
import { DocumentTitle } from '../components/ui/page';
import { JoinOrganization } from '../features/auth/components/join-organization';
import { pathParams } from './-url';

/** `/join/$organizationId/$inviteId`: where an invite link leads (the console writes these links). */
export const Route = createFileRoute('/join/$organizationId/$inviteId')({
  params: { parse: pathParams({ organizationId: ID_MAX, inviteId: INVITE_ID_MAX }) },
  component: JoinPage,
});

function JoinPage() {
  const { organizationId, inviteId } = Route.useParams();
  const router = useRouter();
  const here = router.buildLocation({ to: Route.fullPath, params: { organizationId, inviteId } }).href;
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
