// Render benchmark (part of `npm run bench`): one page of real documentation, Fastify's `docs/Reference/Server.md`
// (84 KB of markdown written on GitHub: 150 headings, code, tables, links), read by each renderer that starts from
// the page's markdown. Medians of BENCH_RENDERS runs (default 15), after one warm-up:
// - the published page's body (parse, HTML written in it parsed, sanitize, heading ids; code highlighted as the
//   worker pool does it);
// - the links report's reading of it (links and anchors), and search's (sections);
// - the API's JSON document of it (GitBook's model), and that document written back as markdown.
// Issue 26 asked for this figure: the parse and render of an 84 KB page.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { markdownLinks, renderBody, renderMarkdown, resolveHref } from '../src/server/domain/sites/render.js';
import { highlightCode } from '../src/server/domain/sites/highlight.js';
import { extractSections } from '../src/server/domain/search/extract.js';
import { markdownToDocument } from '../src/shared/document/from-markdown.js';
import { documentToMarkdown } from '../src/shared/document/to-markdown.js';
import { median } from './setup.js';

const RUNS = Number(process.env.BENCH_RENDERS ?? 15);
const docs = path.join(path.dirname(createRequire(import.meta.url).resolve('fastify/package.json')), 'docs');
const markdown = fs.readFileSync(path.join(docs, 'Reference/Server.md'), 'utf8');
const links = {
  currentPath: 'reference/server',
  siteRoot: 'https://docs.example.com/site',
  page: (ref: string) => `https://docs.example.com/site/${ref}`,
  file: () => undefined,
  fileNamed: () => undefined,
};

function time(run: () => unknown): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  return median(times);
}

const document = markdownToDocument(markdown);
const rows: Array<[string, number]> = [
  ['published body (no code highlighting)', time(() => renderMarkdown(markdown, links))],
  [
    'published body, code highlighted (worker)',
    time(() => renderBody(markdown, (href) => resolveHref(href, links), links.siteRoot, highlightCode)),
  ],
  ['links report (links and anchors)', time(() => markdownLinks(markdown))],
  ['search sections', time(() => extractSections(markdown))],
  ['JSON document (API)', time(() => markdownToDocument(markdown))],
  ['JSON document written back as markdown', time(() => documentToMarkdown(document))],
];
console.log(
  `\nRendering one 84 KB page (${(markdown.length / 1024).toFixed(0)} KB, Fastify's Server.md), medians of ${RUNS}:`,
);
for (const [name, ms] of rows) console.log(`  ${name.padEnd(44)} ${ms.toFixed(1).padStart(7)} ms`);
