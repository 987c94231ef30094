import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { createRoute, lazyRouteComponent, Link, redirect, useParams, useRouter } from '@tanstack/react-router';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { buttonClass } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page';
import { EmptyState, ErrorState } from '../components/ui/states';
import { spacesQueryOptions } from '../features/content/api/get-spaces';
import { adaptiveSchemaQueryOptions } from '../features/sites/api/get-adaptive-schema';
import { publishingAuthQueryOptions } from '../features/sites/api/get-publishing-auth';
import { shareLinksQueryOptions } from '../features/sites/api/get-share-links';
import { siteQueryOptions } from '../features/sites/api/get-site';
import { siteStructureQueryOptions } from '../features/sites/api/get-site-structure';
import { templateConditionsQueryOptions } from '../features/sites/api/get-template-conditions';
import { customizationQueryOptions } from '../features/sites/api/get-customization';
import { isApiError } from '../lib/api-client';
import { orNotFound } from './not-found';
import { organizationRoute } from './organization';
import { idParams } from './url';

/**
 * `/o/$organizationId/sites/$siteId/…` (the `urls.app` of a site): its header and tabs; the bare URL opens the
 * structure. Each tab is a child route and sets the document title.
 */
export const siteRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'sites/$siteId',
  params: { parse: idParams('siteId') },
  loader: ({ context, params }) => orNotFound(context.queryClient.ensureQueryData(siteQueryOptions(params))),
  component: lazyRouteComponent(() => import('./site.lazy'), 'SiteLayout'),
  errorComponent: SiteError,
  notFoundComponent: SiteNotFound,
});

export const siteIndexRoute = createRoute({
  getParentRoute: () => siteRoute,
  path: '/',
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/o/$organizationId/sites/$siteId/structure', params, replace: true });
  },
});

export const siteStructureRoute = createRoute({
  getParentRoute: () => siteRoute,
  path: 'structure',
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(siteStructureQueryOptions(params)),
      context.queryClient.ensureQueryData(spacesQueryOptions(params.organizationId)),
    ]),
  component: lazyRouteComponent(() => import('./site.lazy'), 'SiteStructurePage'),
});

export const siteShareLinksRoute = createRoute({
  getParentRoute: () => siteRoute,
  path: 'share-links',
  loader: ({ context, params }) => context.queryClient.ensureQueryData(shareLinksQueryOptions(params)),
  component: lazyRouteComponent(() => import('./site.lazy'), 'SiteShareLinksPage'),
});

export const siteAdaptiveRoute = createRoute({
  getParentRoute: () => siteRoute,
  path: 'adaptive',
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(adaptiveSchemaQueryOptions(params)),
      context.queryClient.ensureQueryData(templateConditionsQueryOptions(params)),
    ]),
  component: lazyRouteComponent(() => import('./site.lazy'), 'SiteAdaptivePage'),
});

export const siteSettingsRoute = createRoute({
  getParentRoute: () => siteRoute,
  path: 'settings',
  loader: async ({ context, params }) => {
    const [site] = await Promise.all([
      context.queryClient.ensureQueryData(siteQueryOptions(params)),
      context.queryClient.ensureQueryData(siteStructureQueryOptions(params)),
    ]);
    // The signing key is for those who manage the site only.
    if (site.permissions.admin) await context.queryClient.ensureQueryData(publishingAuthQueryOptions(params));
  },
  component: lazyRouteComponent(() => import('./site.lazy'), 'SiteSettingsPage'),
});

export const siteCustomizationRoute = createRoute({
  getParentRoute: () => siteRoute,
  path: 'customization',
  loader: ({ context, params }) => context.queryClient.ensureQueryData(customizationQueryOptions(params)),
  component: lazyRouteComponent(() => import('./site.lazy'), 'SiteCustomizationPage'),
});

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
