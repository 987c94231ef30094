import { useQueries } from '@tanstack/react-query';
import type { ssoLoginListSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface OrganizationRef {
  id: string;
  title: string;
}

export interface LinkChoice {
  provider: { id: string; label: string };
  organization: OrganizationRef;
}

/** `GET /v1/orgs/{organizationId}/sso`: the organization's identity providers, which any member may list. */
export function getOrganizationLogins(organizationId: string, signal?: AbortSignal) {
  return api.get<typeof ssoLoginListSchema>(`/orgs/${encodeURIComponent(organizationId)}/sso`, { signal });
}

/** The providers of all these organizations (one request each, asked together), in the organizations' order. */
export function useLinkChoices(organizations: OrganizationRef[]) {
  return useQueries({
    queries: organizations.map((organization) => ({
      queryKey: queryKeys.sso.logins(organization.id),
      queryFn: ({ signal }: { signal: AbortSignal }) => getOrganizationLogins(organization.id, signal),
    })),
    combine: (results) => {
      const failed = results.find((result) => result.isError);
      return {
        isPending: results.some((result) => result.isPending),
        error: failed?.error ?? null,
        refetch: () => results.forEach((result) => result.isError && void result.refetch()),
        choices: results.flatMap((result, index): LinkChoice[] =>
          (result.data?.items ?? []).map((provider) => ({
            provider: { id: provider.id, label: provider.label },
            organization: organizations[index]!,
          })),
        ),
      };
    },
  });
}
