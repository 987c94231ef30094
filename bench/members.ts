// Members benchmark (part of `npm run bench`): the member list of an organization of 50,000 members, as the
// console's members table reads it. Page 1 and page 500 (a deep keyset cursor, 100 per page), the last-seen
// sort, and searches by e-mail fragment: median latency of sequential requests over HTTP, in-process. SQLite, and
// PostgreSQL too when BENCH_DATABASE_URL is set (a fresh schema, dropped after; BENCH_DIALECT picks one of them).
// The members are seeded with multi-row inserts, not 50,000 sign-ups.
import { sql } from 'kysely';
import { buildApp } from '../src/server/app.js';
import { newId } from '../src/server/lib/ids.js';
import { benchDatabase, median } from './setup.js';
import type { MembersTable, UsersTable } from '../src/server/storage/schema.js';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 50_000);
const PER_PAGE = 100;
const DEEP_PAGE = 500;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const BATCH = 500;
const TOKEN = 'bench-members-token-0123456789abcdefghijklmnop';

const dialects: Array<'sqlite' | 'postgres'> = process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const only = process.env.BENCH_DIALECT;
for (const dialect of dialects) if (!only || only === dialect) await runDialect(dialect);

async function runDialect(dialect: 'sqlite' | 'postgres') {
  const { config, storage, owner, cleanup } = await benchDatabase(TOKEN, dialect);
  const { app } = await buildApp({ config, db: storage.db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const org = owner.organizationId;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
  async function call(p: string): Promise<any> {
    const res = await fetch(base + p, { headers: { authorization: `Bearer ${TOKEN}` } });
    const json: unknown = await res.json();
    if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  /** Median latency in ms of SAMPLES sequential requests, after two warm-up requests. */
  async function latency(p: string): Promise<{ ms: number; items: number; count: number }> {
    let last = await call(p);
    await call(p);
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t = performance.now();
      last = await call(p);
      times.push(performance.now() - t);
    }
    return { ms: median(times), items: last.items.length, count: last.count };
  }

  try {
    console.log(`\n[${dialect}] Seeding ${MEMBERS.toLocaleString('en')} members…`);
    const started = performance.now();
    const t0 = Date.parse('2024-01-01T00:00:00.000Z');
    for (let start = 0; start < MEMBERS; start += BATCH) {
      const usersBatch: UsersTable[] = [];
      const membersBatch: MembersTable[] = [];
      for (let i = start; i < Math.min(MEMBERS, start + BATCH); i++) {
        const id = newId();
        const joined = new Date(t0 + i * 60_000).toISOString();
        usersBatch.push({
          id,
          email: `user-${i}@bench-${i % 50}.example.com`,
          display_name: `Bench User ${i}`,
          password_hash: '!bench',
          photo_url: null,
          created_at: joined,
        });
        membersBatch.push({
          organization_id: org,
          user_id: id,
          role: i % 10 === 0 ? 'edit' : 'read',
          disabled: 0,
          joined_at: joined,
          // Two members in three have been seen.
          last_seen_at: i % 3 ? new Date(t0 + (MEMBERS - i) * 30_000).toISOString() : null,
          sso: 0,
        });
      }
      await storage.db.transaction().execute(async (tx) => {
        await tx.insertInto('users').values(usersBatch).execute();
        await tx.insertInto('members').values(membersBatch).execute();
      });
    }
    // As autovacuum would soon after such a load: the planner needs the tables' statistics.
    if (dialect === 'postgres') await sql`analyze`.execute(storage.db);
    console.log(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)}s`);

    // Walk to page 500 once, through the API's own cursors.
    const list = `/v1/orgs/${org}/members?limit=${PER_PAGE}`;
    let cursor: string | undefined;
    for (let page = 1; page < DEEP_PAGE; page++) {
      cursor = (await call(`${list}${cursor ? `&page=${cursor}` : ''}`)).next.page as string;
    }
    const seenList = `/v1/orgs/${org}/members?limit=${PER_PAGE}&sort=lastSeenAt`;
    let seenCursor: string | undefined;
    for (let page = 1; page < Math.floor(DEEP_PAGE / 2); page++) {
      seenCursor = (await call(`${seenList}${seenCursor ? `&page=${seenCursor}` : ''}`)).next.page as string;
    }

    const rows: Array<[string, string]> = [
      ['page 1 (joinedAt)', list],
      [`page ${DEEP_PAGE} (deep cursor)`, `${list}&page=${cursor}`],
      ['page 1 (lastSeenAt)', seenList],
      [`page ${Math.floor(DEEP_PAGE / 2)} (lastSeenAt)`, `${seenList}&page=${seenCursor}`],
      ['search e-mail "user-4242"', `${list}&search=user-4242`],
      ['search e-mail "bench-7."', `${list}&search=bench-7.`],
      ['search name "user 4242"', `${list}&search=user%204242`],
      ['search "42" (2 characters)', `${list}&search=42`],
      ['search "example" (every one)', `${list}&search=example`],
    ];
    console.log(
      `\n[${dialect}] Member list, ${MEMBERS.toLocaleString('en')} members, ${PER_PAGE} per page, median of ${SAMPLES}:`,
    );
    for (const [name, p] of rows) {
      const r = await latency(p);
      console.log(`  ${name.padEnd(30)} ${r.ms.toFixed(1).padStart(7)} ms   (${r.items} items of ${r.count})`);
    }
  } finally {
    await app.close();
    await cleanup();
  }
}
