import { useQuery } from '@tanstack/react-query';
import type { siteListSchema, spaceListSchema } from '../../../../shared/contract';
import { getAllPages } from '../../../lib/api-client';

/** The organization's spaces and sites an installation can be given (ids and titles). */
export function useTargetChoices(organizationId: string, kind: 'space' | 'site') {
  return useQuery({
    queryKey: ['integrations', 'choices', organizationId, kind],
    queryFn: async ({ signal }) => {
      const base = `/orgs/${encodeURIComponent(organizationId)}/${kind}s`;
      const items =
        kind === 'space'
          ? await getAllPages<typeof spaceListSchema>(base, {}, signal)
          : await getAllPages<typeof siteListSchema>(base, {}, signal);
      return items.map((item) => ({ id: item.id, title: item.title || 'Untitled' }));
    },
  });
}
