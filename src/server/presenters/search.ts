import type { SearchPageResult, SearchSpaceResult } from '../../shared/contract/search.js';
import type { PageHit, SearchHits } from '../domain/search/service.js';
import { pageApp } from './revision.js';
import type { Urls } from '../lib/urls.js';

/** A page of the results; `url` is where it opens (the console, or the published site). */
export function presentPageHit(hit: PageHit, url: string): SearchPageResult {
  return {
    id: hit.pageId,
    title: hit.title,
    path: hit.path,
    urls: { app: url },
    highlights: { title: hit.titleMarks },
    sections: hit.sections.map((s) => {
      const hash = s.anchor ? `#${s.anchor}` : '';
      return {
        id: s.anchor || hit.pageId,
        title: s.anchor ? s.heading : hit.title,
        path: `${hit.path}${hash}`,
        body: s.body,
        urls: { app: `${url}${hash}` },
        highlights: { title: s.anchor ? s.headingMarks : hit.titleMarks, body: s.bodyMarks },
      };
    }),
  };
}

/** A page's URL in the console. */
export function consolePageUrl(urls: Urls, result: SearchHits, hit: PageHit): string {
  const space = result.spaces.get(hit.spaceId)!;
  return pageApp(urls, { organizationId: space.organization_id, spaceId: space.id }, hit.pageId);
}

/**
 * The hits grouped by space, in rank order of each space's best page (a space whose pages continue on the next
 * page of results appears there again).
 */
export function presentBySpace(result: SearchHits, url: (hit: PageHit) => string | undefined): SearchSpaceResult[] {
  const out = new Map<string, SearchSpaceResult>();
  for (const hit of result.hits) {
    const target = url(hit);
    if (target === undefined) continue;
    let item = out.get(hit.spaceId);
    if (!item) {
      item = { id: hit.spaceId, title: result.spaces.get(hit.spaceId)?.title ?? '', pages: [] };
      out.set(hit.spaceId, item);
    }
    item.pages.push(presentPageHit(hit, target));
  }
  return [...out.values()];
}
