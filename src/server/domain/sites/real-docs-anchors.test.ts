import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { markdownLinks } from './render.js';

/**
 * Real documentation written on GitHub (the `docs/` folders of packages this project depends on): its links to
 * sections of its own pages land where GitHub lands them. Counted as the links report counts (anchors of headings
 * and of anchors written in the page), with the pages' relative `.md` links resolved in the folder.
 */
function brokenLinks(root: string): { links: number; broken: string[] } {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const file = path.resolve(dir, name);
      if (fs.statSync(file).isDirectory()) walk(file);
      else if (file.endsWith('.md')) files.push(file);
    }
  };
  walk(root);
  const read = new Map(files.map((f) => [f, markdownLinks(fs.readFileSync(f, 'utf8'))]));
  let links = 0;
  const broken: string[] = [];
  for (const [file, { links: found }] of read) {
    for (const { href, image } of found) {
      if (image || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//') || href.startsWith('/')) continue;
      const [target, hash] = href.split('#') as [string, string | undefined];
      if (target && !target.endsWith('.md')) continue;
      links++;
      const page = read.get(target ? path.resolve(path.dirname(file), decodeURIComponent(target)) : file);
      if (!page || (hash && !page.anchors.includes(decodeURIComponent(hash)))) {
        broken.push(`${path.relative(root, file)} → ${href}`);
      }
    }
  }
  return { links, broken };
}

const docsOf = (pkg: string) =>
  path.join(path.dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), 'docs');

describe('anchors of real documentation', () => {
  it("finds the sections Fastify's docs link to, as GitHub does", () => {
    const { links, broken } = brokenLinks(docsOf('fastify'));
    expect(links).toBeGreaterThan(600);
    // Broken on GitHub too: a page the package does not ship, an anchor in a table cell GFM drops, and headings of
    // the TypeScript reference whose links name a shorter text than the heading has.
    expect(broken.filter((b) => !b.startsWith('Reference/TypeScript.md → #'))).toEqual([
      'Guides/Index.md → ./Contributing.md',
      'Reference/Errors.md → #fst_err_error_handler_already_set',
    ]);
    expect(broken.length).toBeLessThanOrEqual(15);
  });
});
