import { useQuery } from '@tanstack/react-query';
import { createRoute, lazyRouteComponent, Link } from '@tanstack/react-router';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { PlainLayout } from '../components/layout/app-shell';
import { buttonClass } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page';
import { NotFoundState } from './root';
import { ErrorState } from '../components/ui/states';
import { SsoRequired } from '../features/auth/components/sso-required';
import { organizationQueryOptions } from '../features/organizations/api/get-organization';
import { organizationsQueryOptions } from '../features/organizations/api/get-organizations';
import { isApiError, isSsoRequired } from '../lib/api-client';
import { appRoute } from './app';
import { idParams } from './url';

export const organizationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/o/$organizationId',
  params: { parse: idParams('organizationId') },
  loader: ({ context, params }) => context.queryClient.ensureQueryData(organizationQueryOptions(params.organizationId)),
  component: lazyRouteComponent(() => import('./organization.lazy'), 'OrganizationLayout'),
  errorComponent: OrganizationError,
});

/**
 * The organization enforces single sign-on and this session did not come through its provider: its name (from the
 * list of the caller's organizations, which the refusal does not hide) and the way in.
 */
export function SsoRequiredState({ organizationId }: { organizationId: string }) {
  const organizations = useQuery(organizationsQueryOptions());
  const title = organizations.data?.find((organization) => organization.id === organizationId)?.title;
  return (
    <>
      <DocumentTitle>{title ? `${title} requires single sign-on` : 'Single sign-on required'}</DocumentTitle>
      <SsoRequired organizationId={organizationId} title={title} />
    </>
  );
}

function OrganizationError({ error, reset }: ErrorComponentProps) {
  const { organizationId } = organizationRoute.useParams();
  if (isSsoRequired(error)) {
    return (
      <PlainLayout>
        <SsoRequiredState organizationId={organizationId} />
      </PlainLayout>
    );
  }
  return <OrganizationMissing error={error} reset={reset} />;
}

function OrganizationMissing({ error, reset }: Pick<ErrorComponentProps, 'error' | 'reset'>) {
  const missing = isApiError(error, 404) || isApiError(error, 403);
  return (
    <PlainLayout>
      <ErrorState
        error={error}
        title={missing ? 'Organization not found' : undefined}
        message={missing ? 'It does not exist, or you are not one of its members.' : undefined}
        onRetry={missing ? undefined : reset}
        action={
          <Link to="/" className={buttonClass('secondary')}>
            Go to your organizations
          </Link>
        }
      />
    </PlainLayout>
  );
}

/** An address under the organization that no screen answers: "not found" beside the organization's sidebar. */
export const organizationNotFoundRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: '$',
  component: NotFoundState,
});
