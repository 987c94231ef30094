import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/o/$organizationId/sites_/$siteId/')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/o/$organizationId/sites/$siteId/structure', params, replace: true });
  },
});
