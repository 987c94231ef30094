import { queryOptions, useQuery } from '@tanstack/react-query';
import type { openApiSpecListSchema } from '../../../../shared/contract';
import type { OpenApiSpec } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const base = (organizationId: string) => `/orgs/${encodeURIComponent(organizationId)}/openapi`;

/** `GET /v1/orgs/{organizationId}/openapi`: every spec of the organization. */
export function getSpecs(organizationId: string, signal?: AbortSignal) {
  return getAllPages<typeof openApiSpecListSchema>(base(organizationId), {}, signal);
}

/** Whether a spec's processing is still to come: its state is read again shortly. */
export function isProcessing(spec: Pick<OpenApiSpec, 'processingState'>): boolean {
  return spec.processingState !== 'complete';
}

export function specsQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.openapi.list(organizationId),
    queryFn: ({ signal }) => getSpecs(organizationId, signal),
    // Processing runs in the background: the list follows it until every spec is done.
    refetchInterval: (query) => (query.state.data?.some(isProcessing) ? 1000 : false),
  });
}

export function useSpecs(organizationId: string) {
  return useQuery(specsQueryOptions(organizationId));
}
