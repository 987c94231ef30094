import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { reusableContentListSchema, reusableContentSchema } from '../../../shared/contract';
import { expandIncludes, includedNames, INCLUDE_DEPTH_MAX } from '../../../shared/gitbook-blocks';
import { API_BASE, api } from '../../lib/api-client';

/** Reusable contents listed to find those a body includes (a space has a few dozen, as a rule). */
const LIST_LIMIT = 100;

/**
 * `markdown` with the reusable contents it includes (`{% include %}`) in place, as the published page shows it,
 * read from the revision whose files the body shows (`filesUrl`, MarkdownFilesContext: a revision's reusable
 * contents sit beside its files). A revision never changes, so neither do these reads. Until they answer, and for a
 * name no content has, the include stays a labelled block. Included content's own includes are read once its body
 * is, INCLUDE_DEPTH_MAX levels deep, as the published page expands them.
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
  const client = useQueryClient();
  const bodyKey = (id: string) => ['reusable-includes', base, id];
  // The contents included, level by level: those of a content whose body has been read already are known.
  const items = list.data?.items ?? [];
  const wanted: typeof items = [];
  let level = names;
  for (let depth = 0; depth < INCLUDE_DEPTH_MAX && level.length; depth++) {
    const next: string[] = [];
    for (const name of level) {
      const item = items.find((i) => i.slug === name || i.id === name);
      if (!item || wanted.includes(item)) continue;
      wanted.push(item);
      const body = client.getQueryData<{ markdown?: string }>(bodyKey(item.id))?.markdown;
      if (body) next.push(...includedNames(body));
    }
    level = next;
  }
  const bodies = useQueries({
    queries: wanted.map((item) => ({
      queryKey: bodyKey(item.id),
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
  return expandIncludes(markdown, (name) => byName.get(name), []);
}
