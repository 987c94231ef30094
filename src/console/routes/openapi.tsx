import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { idSchema, openApiSlugSchema } from '../../shared/contract';
import { DocumentTitle } from '../components/ui/page';
import { useOrganization } from '../features/organizations/api/get-organization';
import { specsQueryOptions } from '../features/openapi/api/get-specs';
import { specQueryOptions } from '../features/openapi/api/get-spec';
import { versionsQueryOptions } from '../features/openapi/api/get-versions';
import { SpecsList } from '../features/openapi/components/specs-list';
import { SpecView } from '../features/openapi/components/spec-view';
import { organizationRoute } from './organization';

/** `/o/$organizationId/openapi`: the organization's OpenAPI specifications. */
export const openApiSpecsRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'openapi',
  loader: ({ context, params }) => context.queryClient.prefetchQuery(specsQueryOptions(params.organizationId)),
  component: SpecsPage,
});

function SpecsPage() {
  const { organizationId } = openApiSpecsRoute.useParams();
  const organization = useOrganization(organizationId);
  const navigate = openApiSpecsRoute.useNavigate();
  return (
    <>
      <DocumentTitle>{`API specifications · ${organization.title}`}</DocumentTitle>
      <SpecsList
        organizationId={organizationId}
        canCreate={organization.permissions.createOpenAPISpec}
        onOpenSpec={(specSlug) =>
          void navigate({ to: '/o/$organizationId/openapi/$specSlug', params: { organizationId, specSlug } })
        }
      />
    </>
  );
}

/** `?tab=reference|compare&version=&from=&to=`: what the spec's page shows, dropped when not valid. */
const specSearchSchema = z.object({
  tab: z.enum(['reference', 'compare']).optional().catch(undefined),
  version: idSchema.optional().catch(undefined),
  from: idSchema.optional().catch(undefined),
  to: idSchema.optional().catch(undefined),
});

/** `/o/$organizationId/openapi/$specSlug`: one specification, its versions, reference and comparisons. */
export const openApiSpecRoute = createRoute({
  getParentRoute: () => organizationRoute,
  path: 'openapi/$specSlug',
  params: {
    parse: (params) => ({ specSlug: openApiSlugSchema.parse(params.specSlug) }),
    stringify: (params) => ({ specSlug: params.specSlug }),
  },
  validateSearch: specSearchSchema,
  loader: async ({ context, params }) => {
    const spec = await context.queryClient.ensureQueryData(specQueryOptions(params.organizationId, params.specSlug));
    await context.queryClient.prefetchQuery(
      versionsQueryOptions(params.organizationId, params.specSlug, spec.lastVersion),
    );
  },
  component: SpecPage,
});

function SpecPage() {
  const { organizationId, specSlug } = openApiSpecRoute.useParams();
  const search = openApiSpecRoute.useSearch();
  const navigate = openApiSpecRoute.useNavigate();
  const organization = useOrganization(organizationId);
  return (
    <>
      <DocumentTitle>{`${specSlug} · API specifications · ${organization.title}`}</DocumentTitle>
      <SpecView
        organizationId={organizationId}
        slug={specSlug}
        state={search}
        onStateChange={(next) => void navigate({ search: next, replace: true })}
        onDeleted={() => void navigate({ to: '/o/$organizationId/openapi', params: { organizationId } })}
      />
    </>
  );
}
