// Links benchmark (part of `npm run bench`): links after a one-page edit in a 10,000-page space against the same in
// a 100-page space, side by side in one run, on SQLite, and on PostgreSQL too when BENCH_DATABASE_URL is set (a
// fresh schema, dropped after). Each round edits one page of each space in a change request (new links: a page,
// an external URL, a missing page) and merges it, which brings the space's links to the new revision, then reads
// GET /v1/spaces/{id}/links (its first four pages of 50 targets). Medians of both, and their ratio between the two spaces
// (goal: at most 1.5: the work follows what changed, not the size of the space).
//
// Pages are written straight into the database (one revision built with the content model's writer, as
// bench/pages.ts does), each body with links of every kind: by id, relative .md, to an anchor, external, an image
// of a file (missing for odd sections), and a missing page on every tenth page. The links of the seeded spaces are
// built by their first read (timed apart).
import { buildApp } from '../src/server/app.js';
import type { Db } from '../src/server/storage/db.js';
import { RevisionReader, RevisionWriter, ROOT, revisionOfSpace } from '../src/server/domain/content/model.js';
import { identifyBlocks, splitBlocks } from '../src/server/domain/content/blocks.js';
import { findSpace, insertRevision, updateSpace } from '../src/server/storage/repos/spaces.js';
import { putBlob } from '../src/server/storage/repos/objects.js';
import { newId } from '../src/server/lib/ids.js';
import { nowIso } from '../src/server/lib/time.js';
import { benchDatabase, median } from './setup.js';

const TOKEN = 'bench-links-token-0123456789abcdefghijklmnopq';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
/** Pages of the links list read after each edit (50 targets each). */
const LIST_PAGES = 4;
const WARMUP = 3;
const PER_SECTION = 99;
const GOAL = 1.5;

const dialects: Array<'sqlite' | 'postgres'> = process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
for (const dialect of dialects)
  if (!process.env.BENCH_DIALECT || process.env.BENCH_DIALECT === dialect) await run(dialect);

/** Writes `sections` × (1 + PER_SECTION) pages with linking bodies into the space, as one new revision. */
async function seed(db: Db, spaceId: string, userId: string, sections: number) {
  const space = (await findSpace(db, spaceId))!;
  const head = await revisionOfSpace(db, spaceId, space.revision_id);
  const writer = new RevisionWriter(new RevisionReader(db, head));
  const at = nowIso();
  const page = (title: string, slug: string, markdown: string) =>
    writer.addObject({
      type: 'document',
      title,
      slug,
      document: writer.addObject({ blocks: identifyBlocks(splitBlocks(markdown), [], newId) }),
      createdAt: at,
      updatedAt: at,
    });
  const tops: string[] = [];
  const edited: string[] = [];
  await db.transaction().execute(async (tx) => {
    for (let s = 0; s < sections; s++) {
      if (s % 2 === 0) {
        const data = Buffer.from(`diagram ${s}`);
        writer.setFile(newId(), {
          name: `diagram-${s}.png`,
          contentType: 'image/png',
          size: data.length,
          blob: await putBlob(tx, data),
        });
      }
      const sectionId = newId();
      tops.push(sectionId);
      const ids = Array.from({ length: PER_SECTION }, () => newId());
      ids.forEach((id, i) => {
        const markdown = [
          `# Page ${s}.${i}`,
          `See [next](/pages/${ids[(i + 1) % PER_SECTION]}) and [previous](./page-${i - 1}.md) in this section, ` +
            `and its [overview](/pages/section-${s}#overview).`,
          `Read [the reference](https://example.com/s${s}/p${i}) and look at ![the diagram](./diagram-${s}.png).`,
          ...(i % 10 === 0 ? [`This one is [missing](./missing-${i}.md).`] : []),
        ].join('\n\n');
        writer.setEntry(id, { v: page(`Page ${s}.${i}`, `page-${i}`, markdown), p: sectionId, c: [] });
      });
      edited.push(ids[Math.floor(PER_SECTION / 2)]!);
      const intro = `# Overview\n\nSection ${s}. Back [home](/pages/section-0).`;
      writer.setEntry(sectionId, { v: page(`Section ${s}`, `section-${s}`, intro), p: null, c: ids });
    }
    writer.setEntry(ROOT, { c: tops } as never);
    const roots = await (await writer.prepare()).write(tx);
    const id = newId();
    await insertRevision(tx, {
      id,
      space_id: spaceId,
      parents: JSON.stringify([head.id]),
      type: 'edits',
      created_by: userId,
      created_at: nowIso(),
      pages_root: roots.pages_root,
      files_root: roots.files_root,
      variables: head.variables,
      change_request_id: null,
    });
    await updateSpace(tx, spaceId, { revision_id: id });
  });
  // The page edited in the rounds: the middle one of the middle section.
  return edited[Math.floor(sections / 2)]!;
}

async function run(dialect: 'sqlite' | 'postgres') {
  const { config, storage, owner, cleanup } = await benchDatabase(TOKEN, dialect);
  const { app } = await buildApp({ config: { ...config, requestTimeoutSeconds: 3600 }, db: storage.db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
  async function call(method: string, p: string, body?: unknown): Promise<any> {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json: unknown = await res.json();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
  const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
    const t = performance.now();
    const value = await fn();
    return [value, performance.now() - t];
  };

  try {
    const userId = (await storage.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
    const spaces = [];
    for (const sections of [1, 100]) {
      const space = await call('POST', `/v1/orgs/${owner.organizationId}/spaces`, { title: `Links ${sections}` });
      const [pageId, seedMs] = await timed(() => seed(storage.db, space.id, userId, sections));
      const [first, buildMs] = await timed(() => call('GET', `/v1/spaces/${space.id}/links`));
      spaces.push({
        pages: sections * (PER_SECTION + 1),
        spaceId: space.id as string,
        pageId,
        seedMs,
        buildMs,
        targets: first.stats.total as number,
        broken: first.stats.broken.total as number,
        editMerge: [] as number[],
        list: [] as number[],
      });
    }
    console.log(`\nLinks after a one-page edit [${dialect}], ${ROUNDS} rounds (after ${WARMUP} warm-up rounds)`);
    for (let round = -WARMUP; round < ROUNDS; round++) {
      // Alternate which space goes first, so that neither always pays for what the other left (garbage, caches).
      for (const s of round % 2 ? [...spaces].reverse() : spaces) {
        const cr = await call('POST', `/v1/spaces/${s.spaceId}/change-requests`, { subject: `Round ${round}` });
        const markdown = [
          '# Edited page',
          `Round ${round}: [a page](/pages/section-0#overview), [the round](https://example.com/round-${round}), ` +
            `[not there](./missing-round-${round}.md).`,
        ].join('\n\n');
        const [, editMergeMs] = await timed(async () => {
          await call('POST', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/content`, {
            changes: [{ operation: 'update_page', page: s.pageId, document: { markdown } }],
          });
          await call('POST', `/v1/spaces/${s.spaceId}/change-requests/${cr.id}/merge`);
        });
        // The first LIST_PAGES pages of the list: which targets a page holds is the luck of their keys (a target
        // linked from 99 pages weighs more than one linked once); over a few pages both spaces draw alike.
        let page: string | undefined;
        for (let p = 0; p < LIST_PAGES; p++) {
          const query = page ? `?page=${encodeURIComponent(page)}` : '';
          const [list, listMs] = await timed(() => call('GET', `/v1/spaces/${s.spaceId}/links${query}`));
          if (list.items.length !== 50) throw new Error(`expected a full page of 50, got ${list.items.length}`);
          if (round >= 0) s.list.push(listMs);
          page = list.next.page as string;
        }
        if (round >= 0) s.editMerge.push(editMergeMs);
      }
    }
    const ms = (x: number) => `${x.toFixed(1)} ms`;
    for (const s of spaces) {
      console.log(
        `  ${s.pages.toLocaleString('en').padStart(6)} pages: ${s.targets.toLocaleString('en')} link targets ` +
          `(${s.broken.toLocaleString('en')} broken); seeded in ${ms(s.seedMs)}, links built by the first read in ` +
          `${ms(s.buildMs)}; edit+merge median ${ms(median(s.editMerge))}, GET …/links median ${ms(median(s.list))}`,
      );
    }
    const [small, large] = spaces as [(typeof spaces)[0], (typeof spaces)[0]];
    for (const [name, a, b] of [
      ['edit+merge', median(large.editMerge), median(small.editMerge)],
      ['GET …/links', median(large.list), median(small.list)],
    ] as const) {
      const ratio = a / b;
      console.log(
        `  ${name}: 10,000 pages / 100 pages = ${ratio.toFixed(2)} (goal ≤ ${GOAL}) ${ratio <= GOAL ? 'PASS' : 'FAIL'}`,
      );
    }
  } finally {
    await app.close();
    await cleanup();
  }
}
