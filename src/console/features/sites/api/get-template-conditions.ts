import { queryOptions, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import type { templateConditionsSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { sitePath, type SiteRef } from '../utils/paths';

/** `GET …/adaptive-schema/template-conditions`: example conditions built from the schema's claims. */
export async function getTemplateConditions(site: SiteRef, signal?: AbortSignal) {
  return (
    await api.get<typeof templateConditionsSchema>(sitePath(site, '/adaptive-schema/template-conditions'), { signal })
  ).items;
}

export function templateConditionsQueryOptions(site: SiteRef) {
  return queryOptions({
    queryKey: queryKeys.sites.templateConditions(site.siteId),
    queryFn: ({ signal }) => getTemplateConditions(site, signal),
  });
}

export function useTemplateConditions(site: SiteRef) {
  return useSuspenseQuery(templateConditionsQueryOptions(site)).data;
}

/** For helpers beside a field: the field works while they load, or if they cannot be had. */
export function useTemplateConditionsIfAny(site: SiteRef) {
  return useQuery(templateConditionsQueryOptions(site)).data ?? [];
}
