import { queryOptions, useQuery } from '@tanstack/react-query';
import type { translationSettingsListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /v1/orgs/{organizationId}/translations`: the organization's translation settings. */
export function getTranslations(organizationId: string, signal?: AbortSignal) {
  return getAllPages<typeof translationSettingsListSchema>(
    `/orgs/${encodeURIComponent(organizationId)}/translations`,
    {},
    signal,
  );
}

export function translationsQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.translations.list(organizationId),
    queryFn: ({ signal }) => getTranslations(organizationId, signal),
  });
}

export function useTranslations(organizationId: string) {
  return useQuery(translationsQueryOptions(organizationId));
}
