// Search benchmark (part of `npm run bench`): full-text search over 100,000 pages (100 spaces of 1,000), on SQLite,
// and on PostgreSQL too when BENCH_DATABASE_URL is set (a fresh schema, dropped after; BENCH_DIALECT picks one).
// p50 and p99 of 200 queries of one to three words over HTTP, sequential, in-process server: the organization
// search as an admin and as a member with the read role (a tenth of the spaces hidden from them, so the permission
// filter is in the query), and the search of one space. Goal: p50 ≤ 20 ms on SQLite, ≤ 30 ms on PostgreSQL.
//
// Seeded fast: the spaces' revisions are built as tries in memory (page entries and versions, no bodies: search
// reads the index, and a page's path from its entry), written with multi-row inserts, and the index rows are
// inserted directly. Text is drawn from a Zipf distribution over 5,000 made-up words (the 50 most frequent play
// the part of stop words); queries take their words uniformly from the others (a writer looks for distinctive
// words), the last one matching as a prefix as it does when typed. BENCH_SEARCH_SLOWEST=1 prints the slowest queries.
import { sql } from 'kysely';
import { buildApp } from '../src/server/app.js';
import { newId } from '../src/server/lib/ids.js';
import { MemoryNodeStore, Trie, hashOf, type Json } from '../src/server/domain/content/tree.js';
import { ROOT, type PageEntry, type PageVersion } from '../src/server/domain/content/model.js';
import { SECTION_SEPARATOR } from '../src/server/domain/search/extract.js';
import type { Executor } from '../src/server/storage/db.js';
import { benchDatabase } from './setup.js';

const SPACES = Number(process.env.BENCH_SEARCH_SPACES ?? 100);
const PAGES_PER_SPACE = Number(process.env.BENCH_SEARCH_PAGES ?? 1000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 200);
const VOCABULARY = 5000;
const STOP = 50;
const TOKEN = 'bench-search-token-0123456789abcdefghijklmnop';

const dialects: Array<'sqlite' | 'postgres'> = process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const only = process.env.BENCH_DIALECT;
const results: string[] = [];
for (const dialect of dialects) if (!only || only === dialect) await runDialect(dialect);
console.log(`\nSearch, ${(SPACES * PAGES_PER_SPACE).toLocaleString('en')} pages, ${QUERIES} queries each:`);
for (const line of results) console.log(line);

/** A deterministic pseudo-random generator, so every run searches the same text. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(rand: () => number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ser', 'ton', 'vel', 'ra', 'nu', 'pes', 'dor', 'fi', 'gan', 'tri', 'bo', 'lun'];
  const words = new Set<string>();
  while (words.size < VOCABULARY) {
    const n = 2 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += syllables[Math.floor(rand() * syllables.length)];
    words.add(w);
  }
  return [...words];
}

/** Draws word ranks with probability ∝ 1/rank (Zipf, s = 1). */
function zipf(rand: () => number) {
  const cumulative: number[] = [];
  let total = 0;
  for (let r = 1; r <= VOCABULARY; r++) cumulative.push((total += 1 / r));
  return () => {
    const x = rand() * total;
    let lo = 0;
    let hi = VOCABULARY - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

async function seed(db: Executor, organizationId: string, ownerId: string) {
  const rand = random(42);
  const words = vocabulary(rand);
  const draw = zipf(rand);
  const text = (n: number) => Array.from({ length: n }, () => words[draw()]).join(' ');
  const title = (n: number) => {
    const t = text(n);
    return t[0]!.toUpperCase() + t.slice(1);
  };
  const now = new Date().toISOString();
  const spaceIds: string[] = [];
  for (let s = 0; s < SPACES; s++) {
    const spaceId = newId();
    spaceIds.push(spaceId);
    const store = new MemoryNodeStore();
    const objects = new Map<string, unknown>();
    const changes = new Map<string, Json | null>();
    const rows: Array<Record<string, string>> = [];
    const ids: string[] = [];
    for (let p = 0; p < PAGES_PER_SPACE; p++) {
      const pageId = newId();
      ids.push(pageId);
      const pageTitle = title(3 + Math.floor(rand() * 3));
      const version: PageVersion = {
        type: 'document',
        title: pageTitle,
        slug: `page-${p}`,
        createdAt: now,
        updatedAt: now,
      };
      const v = hashOf(version);
      objects.set(v, version);
      changes.set(pageId, { v, p: null, c: [] } satisfies PageEntry as unknown as Json);
      // Three sections: the text before the first heading, then two headings with their text.
      const headings = ['', title(2 + Math.floor(rand() * 2)), title(2 + Math.floor(rand() * 2))];
      rows.push({
        space_id: spaceId,
        page_id: pageId,
        version: v,
        title: pageTitle,
        anchors: ['', 'h1', 'h2'].join(SECTION_SEPARATOR),
        headings: headings.join(SECTION_SEPARATOR),
        body: [text(40), text(40), text(40)].join(SECTION_SEPARATOR),
      });
    }
    changes.set(ROOT, { c: ids });
    const pagesRoot = await new Trie(store).update(null, changes);
    for (const [hash, node] of store.nodes) objects.set(hash, node);
    const revisionId = newId();
    await db.transaction().execute(async (tx) => {
      const objectRows = [...objects].map(([id, value]) => ({ id, data: JSON.stringify(value) }));
      for (let i = 0; i < objectRows.length; i += 500) {
        await tx
          .insertInto('objects')
          .values(objectRows.slice(i, i + 500))
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      }
      await tx
        .insertInto('spaces')
        .values({
          id: spaceId,
          organization_id: organizationId,
          parent_id: null,
          title: `Space ${s}`,
          emoji: '',
          visibility: 'private',
          edit_mode: 'live',
          // A tenth of the spaces are hidden from members (the admin sees them).
          default_level: s % 10 === 9 ? null : 'inherit',
          position: `a${String(s).padStart(5, '0')}`,
          revision_id: revisionId,
          comments: 0,
          change_requests: 0,
          change_requests_open: 0,
          change_requests_draft: 0,
          created_by: ownerId,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        })
        .execute();
      await tx
        .insertInto('revisions')
        .values({
          id: revisionId,
          space_id: spaceId,
          parents: '[]',
          type: 'edits',
          created_by: ownerId,
          created_at: now,
          pages_root: pagesRoot,
          files_root: null,
          variables: '{}',
          change_request_id: null,
        })
        .execute();
      for (let i = 0; i < rows.length; i += 200) {
        await tx
          .insertInto('search_pages')
          .values(rows.slice(i, i + 200) as never)
          .execute();
      }
      await tx.insertInto('search_spaces').values({ space_id: spaceId, revision_id: revisionId }).execute();
    });
  }
  // Queries: one to three words of the non-stop vocabulary, uniformly.
  const queries = Array.from({ length: QUERIES }, () => {
    const n = 1 + Math.floor(rand() * 3);
    return Array.from({ length: n }, () => words[STOP + Math.floor(rand() * (VOCABULARY - STOP))]).join(' ');
  });
  return { spaceIds, queries, common: words[3]! };
}

async function runDialect(dialect: 'sqlite' | 'postgres') {
  const { config, storage, owner, cleanup } = await benchDatabase(TOKEN, dialect);
  const { app } = await buildApp({ config, db: storage.db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const org = owner.organizationId;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
  async function call(method: string, p: string, token = TOKEN, body?: unknown): Promise<any> {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json: unknown = await res.json();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  try {
    console.log(`\n[${dialect}] Seeding ${(SPACES * PAGES_PER_SPACE).toLocaleString('en')} pages…`);
    const started = performance.now();
    const ownerId = (await call('GET', '/v1/user')).id as string;
    const { spaceIds, queries, common } = await seed(storage.db, org, ownerId);
    // As autovacuum would soon after such a load: the planner needs the tables' statistics.
    if (dialect === 'postgres') await sql`analyze`.execute(storage.db);
    console.log(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)}s`);

    const invite = await call('POST', `/v1/orgs/${org}/link-invites`, TOKEN, { role: 'read' });
    const reader = await call('POST', '/v1/auth/signup', TOKEN, {
      email: 'reader@bench.example.com',
      password: 'a-good-password',
      displayName: 'Reader',
      invite: { organization: org, id: invite.id },
    });

    const measure = async (name: string, path: (q: string) => string, token = TOKEN, list = queries) => {
      for (const q of list.slice(0, 3)) await call('GET', path(q), token); // warm-up
      const times: number[] = [];
      let found = 0;
      for (const q of list) {
        const t = performance.now();
        const res = await call('GET', path(q), token);
        times.push(performance.now() - t);
        found += res.count;
      }
      if (process.env.BENCH_SEARCH_SLOWEST) {
        const slow = list
          .map((q, i) => [times[i]!, q] as const)
          .sort((a, b) => b[0] - a[0])
          .slice(0, 5);
        for (const [ms, q] of slow) console.log(`    ${ms.toFixed(1)} ms  ${q}`);
      }
      times.sort((a, b) => a - b);
      const at = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))]!;
      const label = `[${dialect}] ${name}`.padEnd(56);
      const line = `  ${label} p50 ${at(0.5).toFixed(1).padStart(6)} ms   p99 ${at(0.99).toFixed(1).padStart(6)} ms   (${Math.round(found / list.length)} pages found on average)`;
      console.log(line);
      results.push(line);
    };
    const q = (text: string) => encodeURIComponent(text);
    await measure('organization search, admin', (text) => `/v1/orgs/${org}/search?query=${q(text)}&limit=20`);
    await measure(
      'organization search, read member',
      (text) => `/v1/orgs/${org}/search?query=${q(text)}&limit=20`,
      reader.token as string,
    );
    await measure('one space (1,000 pages)', (text) => `/v1/spaces/${spaceIds[0]}/search?query=${q(text)}&limit=20`);
    // For scale: a word in nearly every page (what a stop word list would drop), 20 times.
    await measure(
      `a word in most pages ("${common}"), admin`,
      (text) => `/v1/orgs/${org}/search?query=${q(text)}&limit=20`,
      TOKEN,
      Array.from({ length: 20 }, () => common),
    );
  } finally {
    await app.close();
    await cleanup();
  }
}
