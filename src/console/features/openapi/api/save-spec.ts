import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { openApiSpecSchema } from '../../../../shared/contract';
import type { OpenApiSource } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const base = (organizationId: string) => `/orgs/${encodeURIComponent(organizationId)}/openapi`;

/** `POST /v1/orgs/{organizationId}/openapi`: a new spec (409 when the slug is taken). */
export function createSpec(organizationId: string, slug: string, source: OpenApiSource) {
  return api.post<typeof openApiSpecSchema>(base(organizationId), { slug, source });
}

/** `PUT /v1/orgs/{organizationId}/openapi/{specSlug}`: a new source for a spec, processed again. */
export function updateSpec(organizationId: string, slug: string, source: OpenApiSource) {
  return api.put<typeof openApiSpecSchema>(`${base(organizationId)}/${encodeURIComponent(slug)}`, { source });
}

export function useCreateSpec(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, source }: { slug: string; source: OpenApiSource }) => createSpec(organizationId, slug, source),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.openapi.list(organizationId) }),
  });
}

export function useUpdateSpec(organizationId: string, slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (source: OpenApiSource) => updateSpec(organizationId, slug, source),
    onSuccess: (spec) => {
      queryClient.setQueryData(queryKeys.openapi.detail(organizationId, slug), spec);
      return queryClient.invalidateQueries({ queryKey: queryKeys.openapi.all(organizationId) });
    },
  });
}
