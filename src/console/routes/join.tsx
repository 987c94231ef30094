import { createRoute, useRouter } from '@tanstack/react-router';
import { inviteParamsSchema } from '../../shared/contract';
import { AuthLayout } from '../components/layout/auth-layout';
import { DocumentTitle } from '../components/ui/page';
import { JoinOrganization } from '../features/auth/components/join-organization';
import { rootRoute } from './root';

/** `/join/$organizationId/$inviteId`: where an invite link leads (the console writes these links). */
export const joinRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/join/$organizationId/$inviteId',
  params: { parse: (params) => inviteParamsSchema.parse(params) },
  component: JoinPage,
});

function JoinPage() {
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
