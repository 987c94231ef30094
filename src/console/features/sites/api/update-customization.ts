import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { customizationSchema } from '../../../../shared/contract';
import type { Customization } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `PUT /v1/orgs/{organizationId}/sites/{siteId}/customization`: the whole settings, replaced. */
export function updateCustomization(site: SiteRef, body: Customization) {
  return api.put<typeof customizationSchema>(sitePath(site, '/customization'), body);
}

export function useUpdateCustomization(site: SiteRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Customization) => updateCustomization(site, body),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.sites.customization(site.siteId), saved),
  });
}

/**
 * `POST …/customization/preview`: the site's first page as `settings` would show it (HTML, no script), for the
 * live preview. Nothing is saved.
 */
export function previewCustomization(site: SiteRef, settings: Customization, signal?: AbortSignal) {
  return api.text('POST', sitePath(site, '/customization/preview'), settings, signal);
}
