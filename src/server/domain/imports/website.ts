import robotsParser from 'robots-parser';
import { FetchFailedError, IMPORT_USER_AGENT, type ImportScope } from './scope.js';
import type { ImportIds } from './plan.js';
import { fitTitle, titleFromName, type ImportPlan, type PlannedPage } from './plan.js';
import { webKey } from './markdown.js';
import { slugify } from '../content/edit.js';
import type { HtmlConversion } from './html.js';
import { MARKDOWN_DEPTH_MAX } from '../../../shared/markdown-limits.js';
import { redactUrl } from '../../lib/redact-url.js';

/**
 * A website, crawled from its URL: the pages of the same origin under the start page's folder (from
 * `https://example.com/docs/start` the crawl keeps to `https://example.com/docs/…`), breadth first, one request at a
 * time, as robots.txt allows (robots-parser: groups by user agent, Allow/Disallow with wildcards; the start page
 * too; a Crawl-delay up to CRAWL_DELAY_MAX_S between requests). It stops at the website page limit, and says how many
 * pages it found. URLs with a query string are not followed; fragments are ignored. Pages that answer an error or
 * are not HTML are skipped (a start page that does fails the import); a page past the page size limit fails it.
 *
 * The hierarchy comes from the URL paths: a page nests under the page of the longest path that is a prefix of its
 * own, the start page staying at the top; siblings keep the order they were found in.
 */
export const CRAWL_DELAY_MAX_S = 2;

interface Crawled {
  url: string;
  key: string;
  conversion: HtmlConversion;
}

function inScope(url: URL, origin: string, folder: string): boolean {
  return url.origin === origin && url.pathname.startsWith(folder) && !url.search;
}

const folderOf = (url: URL) => url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1);

export async function crawlWebsite(
  start: string,
  scope: ImportScope,
  ids: ImportIds,
  convert: (html: string, pageUrl: string) => Promise<HtmlConversion>,
): Promise<ImportPlan> {
  const { limits } = scope;
  const startUrl = new URL(start);
  startUrl.hash = '';
  let robots = await robotsOf(startUrl, scope);
  if (!robots.isAllowed(startUrl.href, IMPORT_USER_AGENT)) {
    throw scope.invalid(`the site's robots.txt does not allow crawling ${redactUrl(startUrl.href)}`);
  }
  let delayMs = Math.min(robots.getCrawlDelay(IMPORT_USER_AGENT) ?? 0, CRAWL_DELAY_MAX_S) * 1000;

  let origin = startUrl.origin;
  let folder = folderOf(startUrl);
  const queue: string[] = [startUrl.href];
  const seen = new Set<string>([webKey(startUrl.href)!]);
  const crawled: Crawled[] = [];
  /** Keys of the URLs asked for that redirected, to the key of the page they gave. */
  const aliases = new Map<string, string>();
  let first = true;
  while (queue.length && crawled.length < limits.websitePages) {
    scope.check();
    const url = queue.shift()!;
    if (!first && delayMs) await new Promise((resolve) => setTimeout(resolve, Math.min(delayMs, scope.remainingMs())));
    let fetched;
    try {
      fetched = await scope.fetch(url, limits.pageBytes, 'pageBytes', url);
    } catch (err) {
      // A page that answers an error is skipped, unless it is the start page; anything else (an address refused,
      // a page too large, the time limit) stops the import.
      if (err instanceof FetchFailedError && err.answered !== undefined && !first) continue;
      throw err;
    }
    const finalUrl = new URL(fetched.url);
    finalUrl.hash = '';
    if (first) {
      // The start page may redirect (http to https, a trailing slash): the crawl keeps to where it landed.
      if (finalUrl.origin !== origin) {
        robots = await robotsOf(finalUrl, scope);
        delayMs = Math.min(robots.getCrawlDelay(IMPORT_USER_AGENT) ?? 0, CRAWL_DELAY_MAX_S) * 1000;
      }
      if (!robots.isAllowed(finalUrl.href, IMPORT_USER_AGENT)) {
        throw scope.invalid(`the site's robots.txt does not allow crawling ${redactUrl(finalUrl.href)}`);
      }
      origin = finalUrl.origin;
      folder = folderOf(finalUrl);
    } else if (!inScope(finalUrl, origin, folder)) {
      continue;
    }
    const type = fetched.contentType ?? '';
    if (!/^(text\/html|application\/xhtml\+xml)$/i.test(type)) {
      if (first) throw scope.invalid(`${redactUrl(url)} is not an HTML page (${type || 'no content type'})`);
      continue;
    }
    const key = webKey(finalUrl.href)!;
    const asked = webKey(url)!;
    if (asked !== key) aliases.set(asked, key);
    if (crawled.some((c) => c.key === key)) continue;
    seen.add(key);
    const conversion = await convert(fetched.data.toString('utf8'), finalUrl.href);
    crawled.push({ url: finalUrl.href, key, conversion });
    first = false;
    for (const link of conversion.links) {
      let next: URL;
      try {
        next = new URL(link);
      } catch {
        continue;
      }
      next.hash = '';
      const nextKey = webKey(next.href);
      if (!nextKey || seen.has(nextKey) || !inScope(next, origin, folder)) continue;
      if (!robots.isAllowed(next.href, IMPORT_USER_AGENT)) continue;
      seen.add(nextKey);
      queue.push(next.href);
    }
    scope.progress.total(crawled.length + queue.length);
    scope.progress.imported(crawled.length);
  }

  // Pages, nested by their paths.
  const targets: Record<string, string> = {};
  const refs = new Map<string, string>();
  const pages: PlannedPage[] = [];
  const startKey = crawled[0]!.key;
  const keys = new Set(crawled.map((c) => c.key));
  const parentOf = (key: string): string | undefined => {
    // Pages nest at most as deep as page bodies nest lists; deeper paths stay at the top.
    if (key === startKey || key.slice(origin.length).split('/').length > MARKDOWN_DEPTH_MAX) return undefined;
    let path = key;
    while (path.lastIndexOf('/') > origin.length) {
      path = path.slice(0, path.lastIndexOf('/'));
      if (path !== startKey && keys.has(path)) return path;
    }
    return undefined;
  };
  // Parents before their pages: crawl order is breadth first, but a parent may be found after its pages.
  const ordered: Crawled[] = [];
  const placed = new Set<string>();
  const byKey = new Map(crawled.map((c) => [c.key, c]));
  const place = (page: Crawled) => {
    if (placed.has(page.key)) return;
    const parent = parentOf(page.key);
    if (parent && !placed.has(parent)) place(byKey.get(parent)!);
    placed.add(page.key);
    ordered.push(page);
  };
  for (const page of crawled) place(page);
  for (const page of ordered) {
    const { ref, target } = ids.page();
    refs.set(page.key, ref);
    targets[page.key] = target;
    const parent = parentOf(page.key);
    const segment = decodeURIComponent(new URL(page.url).pathname.replace(/\/+$/, '').split('/').at(-1) ?? '');
    pages.push({
      ref,
      ...(parent ? { parent: refs.get(parent)! } : {}),
      type: 'document',
      title: page.conversion.title ? fitTitle(page.conversion.title) : titleFromName(segment || new URL(page.url).host),
      ...(segment && page.key !== startKey ? { slug: slugify(segment.replace(/\.html?$/i, '')) } : {}),
      body: { markdown: page.conversion.markdown, base: page.url },
    });
  }
  for (const [asked, key] of aliases) if (targets[key]) targets[asked] ??= targets[key]!;
  const notImported = queue.length;
  return {
    pages,
    files: [],
    targets,
    mode: 'web',
    notImported,
    ...(notImported
      ? {
          message: `Stopped at the website page limit (${limits.websitePages} pages): ${notImported} more page(s) were found and not imported`,
        }
      : {}),
  };
}

/**
 * The site's robots.txt. Missing (4xx): everything is allowed. A server error (5xx): nothing is, as search
 * engines read it; the import says so.
 */
async function robotsOf(url: URL, scope: ImportScope) {
  const robotsUrl = `${url.origin}/robots.txt`;
  try {
    const fetched = await scope.fetch(robotsUrl, scope.limits.pageBytes, 'pageBytes', robotsUrl);
    return robotsParser(robotsUrl, fetched.data.toString('utf8'));
  } catch (err) {
    if (err instanceof FetchFailedError && err.answered !== undefined && err.answered < 500) {
      return robotsParser(robotsUrl, '');
    }
    if (err instanceof FetchFailedError && err.answered !== undefined) {
      throw scope.invalid(
        `the site's robots.txt answered ${err.answered}: it cannot be crawled now (robots.txt is read before any page)`,
      );
    }
    throw err;
  }
}
