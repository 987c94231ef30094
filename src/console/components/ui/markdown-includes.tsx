import { useQueries, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { reusableContentListSchema, reusableContentSchema } from '../../../shared/contract';
import { expandIncludes, includedNames } from '../../../shared/gitbook-blocks';
import { API_BASE, api } from '../../lib/api-client';

/** Reusable contents listed to find those a body includes (a space has a few dozen, as a rule). */
const LIST_LIMIT = 100;

/**
 * `markdown` with the reusable contents it includes (`{% include %}`) in place, as the published page shows it,
 * read from the revision whose files the body shows (`filesUrl`, MarkdownFilesContext: a revision's reusable
 * contents sit beside its files). A revision never changes, so neither do these reads. Until they answer, and for a
 * name no content has, the include stays a labelled block. Included content's own includes stay labelled blocks.
 */
export function WithIncludes({
  markdown,
  filesUrl,
  children,
}: {
  markdown: string;
  filesUrl: string;
  children: (markdown: string) => ReactNode;
}): ReactNode {
  return children(useWithIncludes(markdown, filesUrl));
}

function useWithIncludes(markdown: string, filesUrl: string | undefined): string {
  const names = filesUrl ? includedNames(markdown) : [];
  const base = filesUrl?.startsWith(`${API_BASE}/`)
    ? `${filesUrl.slice(API_BASE.length).replace(/\/files$/, '')}/reusable-contents`
    : undefined;
  const list = useQuery({
    queryKey: ['reusable-includes', base, 'list'],
    queryFn: ({ signal }) => api.get<typeof reusableContentListSchema>(base!, { query: { limit: LIST_LIMIT }, signal }),
    enabled: base !== undefined && names.length > 0,
    staleTime: Infinity,
  });
  const wanted = (list.data?.items ?? []).filter((item) => names.includes(item.slug) || names.includes(item.id));
  const bodies = useQueries({
    queries: wanted.map((item) => ({
      queryKey: ['reusable-includes', base, item.id],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        api.get<typeof reusableContentSchema>(`${base}/${encodeURIComponent(item.id)}`, {
          query: { format: 'markdown' },
          signal,
        }),
      staleTime: Infinity,
    })),
  });
  if (!names.length) return markdown;
  const byName = new Map<string, string>();
  wanted.forEach((item, i) => {
    const body = bodies[i]?.data?.markdown;
    if (body === undefined) return;
    byName.set(item.id, body);
    if (!byName.has(item.slug)) byName.set(item.slug, body);
  });
  // One level: what included content includes in turn is named, not fetched.
  return expandIncludes(markdown, (name) => byName.get(name), []);
}
