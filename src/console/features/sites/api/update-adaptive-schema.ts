import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateAdaptiveSchemaBody, siteAdaptiveSchemaSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `PUT …/sites/{siteId}/adaptive-schema`: refused (400, with the reason) unless a draft-07 schema of the documented shape. */
export function updateAdaptiveSchema(site: SiteRef, body: UpdateAdaptiveSchemaBody) {
  return api.put<typeof siteAdaptiveSchemaSchema>(sitePath(site, '/adaptive-schema'), body);
}

export function useUpdateAdaptiveSchema(site: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAdaptiveSchemaBody) => updateAdaptiveSchema(site, body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(queryKeys.sites.adaptiveSchema(site.siteId), saved);
      await queryClient.invalidateQueries({ queryKey: queryKeys.sites.templateConditions(site.siteId) });
    },
  });
}
