import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { openApiSpecSchema } from '../../../../shared/contract';
import type { OpenApiVisibility } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /v1/orgs/{organizationId}/openapi/{specSlug}`: public specs' text is readable by anyone with its link. */
export function setVisibility(organizationId: string, slug: string, visibility: OpenApiVisibility) {
  return api.patch<typeof openApiSpecSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/openapi/${encodeURIComponent(slug)}`,
    { visibility },
  );
}

export function useSetVisibility(organizationId: string, slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (visibility: OpenApiVisibility) => setVisibility(organizationId, slug, visibility),
    onSuccess: (spec) => {
      queryClient.setQueryData(queryKeys.openapi.detail(organizationId, slug), spec);
      return queryClient.invalidateQueries({ queryKey: queryKeys.openapi.list(organizationId) });
    },
  });
}
