import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { createFileRoute, Link, Outlet, useParams, useRouter } from '@tanstack/react-router';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { buttonClass } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page';
import { EmptyState, ErrorState } from '../components/ui/states';
import { useOrganization } from '../features/organizations/api/get-organization';
import { siteQueryOptions } from '../features/sites/api/get-site';
import { SiteHeader, SiteTabs } from '../features/sites/components/site-view';
import { isApiError } from '../lib/api-client';
import { orNotFound } from './-not-found';
import { idParams } from './-url';

/**
 * `/o/$organizationId/sites/$siteId/…` (the `urls.app` of a site): its header and tabs; the bare URL opens the
 * structure. Each tab is a child route and sets the document title.
 */
export const Route = createFileRoute('/_app/o/$organizationId/sites_/$siteId')({
  params: { parse: idParams('siteId') },
  loader: ({ context, params }) => orNotFound(context.queryClient.ensureQueryData(siteQueryOptions(params))),
  component: SiteLayout,
  errorComponent: SiteError,
  notFoundComponent: SiteNotFound,
});

function SiteLayout() {
  const params = Route.useParams();
  const organization = useOrganization(params.organizationId);
  return (
    <div className="site-page">
      <SiteHeader site={params} organizationTitle={organization.title} />
      <SiteTabs site={params} />
      <Outlet />
    </div>
  );
}

function BackToSites() {
  const { organizationId } = useParams({ strict: false });
  return (
    organizationId && (
      <Link to="/o/$organizationId/sites" params={{ organizationId }} className={buttonClass('secondary')}>
        Back to sites
      </Link>
    )
  );
}

function SiteNotFound() {
  return (
    <>
      <DocumentTitle>Site not found</DocumentTitle>
      <EmptyState title="Site not found" action={<BackToSites />}>
        It may have been deleted, or the link is wrong.
      </EmptyState>
    </>
  );
}

/** A site that cannot be shown (no access, the server failing): say why; retry what may work next time. */
function SiteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const queryErrorReset = useQueryErrorResetBoundary();
  useEffect(() => queryErrorReset.reset(), [queryErrorReset]);
  return (
    <ErrorState
      error={error}
      onRetry={
        isApiError(error, 403) || isApiError(error, 404)
          ? undefined
          : () => {
              reset();
              void router.invalidate();
            }
      }
      action={<BackToSites />}
    />
  );
}
