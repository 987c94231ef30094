import { queryOptions, useQuery } from '@tanstack/react-query';
import type { accessExplanationSchema } from '../../../../shared/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { targetPath, type AccessTarget } from './target';

/** `GET …/permissions/explain?user=`: a member's level on the item and the rules that give it. */
export function explainQueryOptions(target: AccessTarget, userId: string) {
  return queryOptions({
    queryKey: queryKeys.access.explain(target.kind, target.id, userId),
    queryFn: ({ signal }) =>
      api.get<typeof accessExplanationSchema>(targetPath(target, '/permissions/explain'), {
        query: { user: userId },
        signal,
      }),
  });
}

/** Asks once a member is picked. */
export function useExplainAccess(target: AccessTarget, userId: string | undefined) {
  return useQuery({ ...explainQueryOptions(target, userId ?? ''), enabled: userId !== undefined });
}
