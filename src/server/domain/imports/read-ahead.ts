import { TimeSlices } from '../../lib/yield.js';
import { workers } from '../../workers/pool.js';
import { blocksToMarkdown, markdownCost } from '../content/blocks.js';
import type { LinksAhead } from '../links/documents.js';
import type { Section } from '../search/extract.js';

/** Characters of markdown read per task. */
const BATCH_CHARS = 64 * 1024;
/** Tasks given to the worker pool at once (it queues those beyond its threads). */
const CONCURRENCY = 4;

/**
 * What is read off the page bodies an import is about to write (given as their blocks), before the transaction that
 * writes them, so that it only stores rows: their searchable sections (search/indexer.ts stores them with the
 * documents) and their links (links/documents.ts), by body. Each body is parsed once for both, in the worker pool's
 * background lane, in batches (a thousand small pages are not a thousand tasks).
 */
export async function readBodiesAhead(
  bodies: Iterable<Array<{ markdown: string }>>,
): Promise<{ sections: Map<string, Section[]>; links: LinksAhead }> {
  const sections = new Map<string, Section[]>();
  const links: LinksAhead = new Map();
  const batches: Array<{ markdowns: string[]; cost: number; size: number }> = [];
  const slices = new TimeSlices();
  for (const markdown of new Set([...bodies].map((blocks) => blocksToMarkdown(blocks)))) {
    await slices.pause();
    if (!markdown) continue;
    let batch = batches.at(-1);
    if (!batch || batch.size + markdown.length > BATCH_CHARS)
      batches.push((batch = { markdowns: [], cost: 0, size: 0 }));
    batch.markdowns.push(markdown);
    batch.size += markdown.length;
    batch.cost += markdownCost(markdown);
  }
  for (let i = 0; i < batches.length; i += CONCURRENCY) {
    await Promise.all(
      batches.slice(i, i + CONCURRENCY).map(async (batch) => {
        const read = await workers.run('pagesLinksAndSections', batch.markdowns, batch.cost);
        batch.markdowns.forEach((markdown, k) => {
          sections.set(markdown, read[k]!.sections);
          links.set(markdown, read[k]!.links);
        });
      }),
    );
  }
  return { sections, links };
}
