import type { ServeResult } from './answer.js';
import type { SiteCache } from './cache.js';
import { pageUrlIn, siteSpaceUrlIn } from './urls.js';
import type { VisitorView } from './visitor-access.js';

/** Files for robots and tools at a site's root, with their content types. */
export const MACHINE_FILES = {
  'robots.txt': 'text/plain; charset=utf-8',
  'sitemap.xml': 'application/xml; charset=utf-8',
  'llms.txt': 'text/plain; charset=utf-8',
} as const;

/** Pages listed at most in a sitemap (the sitemap protocol's limit for one file) and in llms.txt. */
const MACHINE_PAGES_MAX = 50_000;

/**
 * `robots.txt`, `sitemap.xml` and `llms.txt` of a site, from what this visitor sees. Only a public site is open
 * to robots: any other (unlisted, share link, visitor sign-in) answers a robots.txt that disallows everything and
 * no sitemap. The sitemap and llms.txt list the pages of every visible site space, up to MACHINE_PAGES_MAX.
 */
export async function machineFile(
  cache: SiteCache,
  view: VisitorView,
  name: keyof typeof MACHINE_FILES,
): Promise<ServeResult> {
  const { site, root, personal, noindex } = view;
  const text = (body: string, status = 200): ServeResult => ({
    kind: 'text',
    status,
    contentType: MACHINE_FILES[name],
    body,
    private: personal || noindex,
    noindex,
  });
  if (name === 'robots.txt') {
    return text(noindex ? 'User-agent: *\nDisallow: /\n' : `User-agent: *\nAllow: /\n\nSitemap: ${root}/sitemap.xml\n`);
  }
  if (name === 'sitemap.xml' && noindex) return text('Not found: this site is not indexed.\n', 404);
  const listed = await listPages(cache, view);
  if (name === 'sitemap.xml') {
    const urls = listed.flatMap((group) => group.pages.map((p) => `<url><loc>${escapeXml(p.url)}</loc></url>`));
    return text(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
    );
  }
  const lines = [`# ${site.title}`, ''];
  for (const group of listed) {
    lines.push(`## ${group.title}`, '');
    for (const p of group.pages) {
      lines.push(`- [${p.title}](${p.url}.md)${p.description ? `: ${p.description}` : ''}`);
    }
    lines.push('');
  }
  return text(lines.join('\n'));
}

/** The pages of each site space this visitor sees, with their URLs, in the site's order. */
async function listPages(cache: SiteCache, view: VisitorView) {
  const { structure, visible, spaces, root } = view;
  const groups: Array<{ title: string; pages: Array<{ url: string; title: string; description: string }> }> = [];
  let count = 0;
  const parents = structure.sections.length > 0 ? visible.sections : [undefined];
  for (const section of parents) {
    for (const siteSpace of visible.siteSpaces.get(section?.id ?? '') ?? []) {
      const space = spaces.get(siteSpace.space_id)!;
      const index = await cache.index(space.revision_id);
      if (!index) continue;
      const base = siteSpaceUrlIn(root, section, siteSpace);
      const pages: Array<{ url: string; title: string; description: string }> = [];
      for (const node of index.byPath.values()) {
        if (count >= MACHINE_PAGES_MAX) break;
        // A page that asks search engines not to index it is not offered to crawlers.
        if (node.version.noRobotsIndex) continue;
        pages.push({
          url: pageUrlIn(base, node.path),
          title: node.version.title,
          description: node.version.description ?? '',
        });
        count++;
      }
      groups.push({ title: section ? `${section.title} · ${space.title}` : space.title, pages });
    }
  }
  return groups;
}

function escapeXml(value: string): string {
  return value.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );
}
