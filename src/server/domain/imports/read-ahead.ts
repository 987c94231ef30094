import { TimeSlices } from '../../lib/yield.js';
import { workers } from '../../workers/pool.js';
import { blocksToMarkdown, markdownBatches, markdownCost } from '../content/blocks.js';
import type { LinksAhead } from '../links/documents.js';
import type { Section } from '../search/extract.js';

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
  const markdowns = new Set<string>();
  const slices = new TimeSlices();
  for (const blocks of bodies) {
    markdowns.add(blocksToMarkdown(blocks));
    const pause = slices.pause();
    if (pause) await pause;
  }
  markdowns.delete('');
  const batches = markdownBatches(markdowns, (markdown) => markdown);
  for (let i = 0; i < batches.length; i += CONCURRENCY) {
    await Promise.all(
      batches.slice(i, i + CONCURRENCY).map(async (batch) => {
        const cost = batch.reduce((n, markdown) => n + markdownCost(markdown), 0);
        const read = await workers.run('pagesLinksAndSections', batch, cost);
        batch.forEach((markdown, k) => {
          sections.set(markdown, read[k]!.sections);
          links.set(markdown, read[k]!.links);
        });
      }),
    );
  }
  return { sections, links };
}
