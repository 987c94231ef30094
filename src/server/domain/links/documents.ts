import type { Executor } from '../../storage/db.js';
import { getObjects } from '../../storage/repos/objects.js';
import * as repo from '../../storage/repos/links.js';
import { FifoCache } from '../../lib/fifo-cache.js';
import { TimeSlices, yieldToEventLoop } from '../../lib/yield.js';
import { workers } from '../../workers/pool.js';
import { blocksToMarkdown, markdownBatches, markdownCost, type SplitBlock } from '../content/blocks.js';
import type { DocumentObject } from '../content/model.js';
import type { BodyLink } from '../sites/render.js';

/**
 * The links and heading anchors of page bodies, read once per document object. A document is immutable and
 * addressed by its hash, so what is read off it holds for every revision and space that shares it: it is stored
 * (`link_documents`) the first time it is needed, and kept in memory too.
 */
export interface DocumentLinks {
  links: BodyLink[];
  anchors: string[];
  /** Names of the reusable contents the body includes (`{% include %}`): their links are the page's too. */
  includes?: string[];
}

const EMPTY: DocumentLinks = { links: [], anchors: [] };
const cache = new FifoCache<DocumentLinks>(20_000);

/** Links of page bodies read ahead (before a transaction), by the markdown of their blocks joined (`bodyKey`). */
export type LinksAhead = Map<string, DocumentLinks>;

/** The markdown a document's links are read from: its blocks joined, as the body is published. */
export function bodyKey(blocks: SplitBlock[]): string {
  return blocksToMarkdown(blocks.map((b) => ({ ...b, id: '' })));
}

/** Reads links off a body: in the worker pool when it is big (parsing costs), inline otherwise. */
export function readLinks(markdown: string): Promise<DocumentLinks> {
  return workers.run('pageLinks', markdown, markdownCost(markdown));
}

/**
 * The links of the bodies about to be written (the parsed blocks of each new body), read before the transaction
 * that writes them, so the transaction only stores rows. Those `known` already (read with their sections) are not
 * read again.
 */
export async function linksAhead(bodies: Iterable<SplitBlock[]>, known: LinksAhead = new Map()): Promise<LinksAhead> {
  const out: LinksAhead = new Map(known);
  const toRead = new Set<string>();
  const slices = new TimeSlices();
  for (const blocks of bodies) {
    const key = bodyKey(blocks);
    if (!out.has(key)) toRead.add(key);
    const pause = slices.pause();
    if (pause) await pause;
  }
  // In batches (a thousand small bodies of an import are not a thousand tasks run inline one after the other,
  // holding the event loop for seconds), in the worker pool when large, inline with a pause between otherwise.
  const all = [...toRead];
  for (const batch of markdownBatches(all, (markdown) => markdown)) {
    const cost = batch.reduce((n, markdown) => n + markdownCost(markdown), 0);
    const results = await workers.run('pagesLinks', batch, cost);
    batch.forEach((markdown, i) => out.set(markdown, results[i]!));
    if (workers.runsInline(cost)) await yieldToEventLoop();
  }
  return out;
}

function encode(links: DocumentLinks): string {
  return JSON.stringify({
    l: links.links.map((l) => [l.href, l.image ? 1 : 0]),
    a: links.anchors,
    ...(links.includes ? { i: links.includes } : {}),
  });
}

function decode(data: string): DocumentLinks {
  const raw = JSON.parse(data) as { l: Array<[string, number]>; a: string[]; i?: string[] };
  const links = raw.l.map(([href, image]) => ({ href, image: image === 1 }));
  return raw.i ? { links, anchors: raw.a, includes: raw.i } : { links, anchors: raw.a };
}

/**
 * The links of these documents (by hash), reading and storing those never read before: from `ahead` when they
 * were read before the transaction, else parsed now (in the worker pool when big). Stored rows are never
 * changed, so any transaction may add them; they are inserted in hash order, one statement, so two transactions
 * adding the same ones never wait for each other in a cycle.
 */
export async function documentLinks(
  db: Executor,
  hashes: Iterable<string>,
  ahead?: LinksAhead,
): Promise<Map<string, DocumentLinks>> {
  const out = new Map<string, DocumentLinks>();
  const wanted: string[] = [];
  // Tens of thousands of documents (a merge of an import) are decoded in slices of the event loop.
  const slices = new TimeSlices();
  const asked = new Set<string>();
  for (const hash of hashes) {
    if (asked.has(hash)) continue;
    asked.add(hash);
    const hit = cache.get(hash);
    if (hit) out.set(hash, hit);
    else wanted.push(hash);
    const pause = slices.pause();
    if (pause) await pause;
  }
  if (!wanted.length) return out;
  const stored = await repo.findDocuments(db, wanted);
  const missing: string[] = [];
  for (const hash of wanted) {
    const data = stored.get(hash);
    if (data === undefined) {
      missing.push(hash);
      continue;
    }
    const links = decode(data);
    cache.set(hash, links);
    out.set(hash, links);
    const pause = slices.pause();
    if (pause) await pause;
  }
  if (!missing.length) return out;
  const fresh = new Map<string, string>();
  const found = (hash: string, links: DocumentLinks) => {
    // Cached even before the transaction commits: what a document holds never depends on where it is stored.
    cache.set(hash, links);
    out.set(hash, links);
    fresh.set(hash, encode(links));
  };
  for (let i = 0; i < missing.length; i += 500) {
    if (i > 0) await yieldToEventLoop();
    const objects = await getObjects<DocumentObject>(db, missing.slice(i, i + 500), { remember: false });
    const toRead: Array<[string, string]> = [];
    for (const [hash, object] of objects) {
      const markdown = bodyKey(object.blocks);
      const known = ahead?.get(markdown) ?? (markdown.trim() ? undefined : EMPTY);
      if (known) found(hash, known);
      else toRead.push([hash, markdown]);
    }
    // Many bodies (a space built from nothing) are read in batches, in the worker pool (inline when small).
    const batches = markdownBatches(toRead, ([, markdown]) => markdown);
    const results = await Promise.all(
      batches.map((batch) =>
        workers.run(
          'pagesLinks',
          batch.map(([, markdown]) => markdown),
          batch.reduce((n, [, markdown]) => n + markdownCost(markdown), 0),
        ),
      ),
    );
    batches.forEach((batch, b) => batch.forEach(([hash], j) => found(hash, results[b]![j]!)));
  }
  await repo.insertDocuments(db, fresh);
  return out;
}
