import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/o/$organizationId/settings/')({
  // Members and teams have their own entries in the sidebar: "Settings" opens General, which guests read too.
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/o/$organizationId/settings/general', params, replace: true });
  },
});
