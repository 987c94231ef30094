import { createFileRoute } from '@tanstack/react-router';
import { OPENAPI_SLUG_MAX, OPENAPI_SLUG_PATTERN } from '../../shared/contract/constants';
import { DocumentTitle } from '../components/ui/page';
import { specQueryOptions } from '../features/openapi/api/get-spec';
import { versionsQueryOptions } from '../features/openapi/api/get-versions';
import { SpecView } from '../features/openapi/components/spec-view';
import { useOrganization } from '../features/organizations/api/get-organization';
import { ApiError } from '../lib/api-client';
import { id, oneOf, pathParams, searchParams } from './-url';

/** `?tab=reference|compare&version=&from=&to=`: what the spec's page shows, dropped when not valid. */
const specSearch = searchParams<{ tab: 'reference' | 'compare'; version: string; from: string; to: string }>({
  tab: oneOf(['reference', 'compare'] as const),
  version: id,
  from: id,
  to: id,
});

/** A spec's slug as the contract allows it (lowercase letters and digits, single dashes); any other is not found. */
function specParams(params: { specSlug: string }) {
  const { specSlug } = pathParams({ specSlug: OPENAPI_SLUG_MAX })(params);
  if (!OPENAPI_SLUG_PATTERN.test(specSlug)) throw new ApiError(404, 'Not found.');
  return { specSlug };
}

/** `/o/$organizationId/openapi/$specSlug`: one specification, its versions, reference and comparisons. */
export const Route = createFileRoute('/_app/o/$organizationId/openapi_/$specSlug')({
  params: {
    parse: specParams,
    stringify: (params) => ({ specSlug: params.specSlug }),
  },
  validateSearch: specSearch,
  loader: async ({ context, params }) => {
    const spec = await context.queryClient.ensureQueryData(specQueryOptions(params.organizationId, params.specSlug));
    await context.queryClient.prefetchQuery(
      versionsQueryOptions(params.organizationId, params.specSlug, spec.lastVersion),
    );
  },
  component: SpecPage,
});

function SpecPage() {
  const { organizationId, specSlug } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
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
