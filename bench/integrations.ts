// Integrations benchmark (part of `npm run bench`): the integrations directory (`GET /v1/integrations`) with
// 1,000 published integrations of 20 organizations, 50 per page: page 1 against page 10 (reached through the
// API's own cursors), and a search and a category filter, median latency of sequential requests over HTTP,
// in-process. SQLite, and PostgreSQL too when BENCH_DATABASE_URL is set. The integrations are seeded with
// multi-row inserts, not 1,000 publications.
import { sql } from 'kysely';
import { buildApp } from '../src/server/app.js';
import { newId } from '../src/server/lib/ids.js';
import { INTEGRATION_CATEGORIES } from '../src/shared/contract/integrations.js';
import type { IntegrationsTable } from '../src/server/storage/schema.js';
import { benchDatabase, median } from './setup.js';

const INTEGRATIONS = Number(process.env.BENCH_INTEGRATIONS ?? 1000);
const OWNERS = 20;
const PER_PAGE = 50;
const DEEP_PAGE = 10;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 50);
const TOKEN = 'bench-integrations-token-0123456789abcdefghijk';

const dialects: Array<'sqlite' | 'postgres'> = process.env.BENCH_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const only = process.env.BENCH_DIALECT;
for (const dialect of dialects) if (!only || only === dialect) await runDialect(dialect);

async function runDialect(dialect: 'sqlite' | 'postgres') {
  const { config, storage, owner, cleanup } = await benchDatabase(TOKEN, dialect);
  const { app } = await buildApp({ config, db: storage.db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes
  async function call(p: string): Promise<any> {
    const res = await fetch(base + p, { headers: { authorization: `Bearer ${TOKEN}` } });
    const json: unknown = await res.json();
    if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
  async function latency(p: string): Promise<{ ms: number; items: number }> {
    let last = await call(p);
    await call(p);
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t = performance.now();
      last = await call(p);
      times.push(performance.now() - t);
    }
    return { ms: median(times), items: last.items.length };
  }
  try {
    const now = new Date().toISOString();
    const owners: string[] = [owner.organizationId];
    for (let i = 1; i < OWNERS; i++) {
      const id = newId();
      await storage.db
        .insertInto('organizations')
        .values({
          ...(await storage.db
            .selectFrom('organizations')
            .selectAll()
            .where('id', '=', owner.organizationId)
            .executeTakeFirstOrThrow()),
          id,
          title: `Vendor ${i}`,
          hostname: null,
        })
        .execute();
      owners.push(id);
    }
    const rows: IntegrationsTable[] = [];
    for (let i = 0; i < INTEGRATIONS; i++) {
      const category = INTEGRATION_CATEGORIES[i % INTEGRATION_CATEGORIES.length]!;
      rows.push({
        name: `integration-${String(i).padStart(4, '0')}`,
        organization_id: owners[i % OWNERS]!,
        version: 1,
        // Listing reads no account: none is made.
        account_id: null,
        title: `Integration ${i}`,
        description: `Connects docs to service number ${i}`,
        summary: null,
        visibility: 'public',
        target: i % 3 ? 'all' : 'space',
        runtime: 'v2',
        scopes: JSON.stringify(['space:content:read']),
        categories: JSON.stringify([category]),
        blocks: null,
        content_sources: null,
        configurations: null,
        external_links: '[]',
        content_security_policy: null,
        script: 'export default {}',
        secrets: null,
        icon_asset_id: null,
        preview_asset_ids: '[]',
        unfurl_domains: '  ',
        has_blocks: 0,
        has_content_sources: 0,
        dev_tunnel_url: null,
        dev_all: 0,
        created_at: now,
        updated_at: now,
      });
    }
    for (let i = 0; i < rows.length; i += 200)
      await storage.db
        .insertInto('integrations')
        .values(rows.slice(i, i + 200))
        .execute();
    if (dialect === 'postgres') await sql`analyze`.execute(storage.db);

    let cursor: string | undefined;
    for (let page = 1; page < DEEP_PAGE; page++) {
      cursor = (await call(`/v1/integrations?limit=${PER_PAGE}${cursor ? `&page=${cursor}` : ''}`)).next.page;
    }
    const first = await latency(`/v1/integrations?limit=${PER_PAGE}`);
    const deep = await latency(`/v1/integrations?limit=${PER_PAGE}&page=${cursor}`);
    const search = await latency(`/v1/integrations?limit=${PER_PAGE}&search=service%20number%2077`);
    const category = await latency(`/v1/integrations?limit=${PER_PAGE}&category=marketing`);
    console.log(
      `\n[${dialect}] GET /v1/integrations, ${INTEGRATIONS.toLocaleString('en')} integrations of ${OWNERS} organizations, ${PER_PAGE} per page, median of ${SAMPLES}:`,
    );
    console.log(`  page 1                 ${first.ms.toFixed(2).padStart(7)} ms   (${first.items} items)`);
    console.log(`  page ${DEEP_PAGE}                ${deep.ms.toFixed(2).padStart(7)} ms   (${deep.items} items)`);
    console.log(`  page ${DEEP_PAGE} / page 1       ${(deep.ms / first.ms).toFixed(2).padStart(7)}×`);
    console.log(`  search                 ${search.ms.toFixed(2).padStart(7)} ms   (${search.items} items)`);
    console.log(`  category filter        ${category.ms.toFixed(2).padStart(7)} ms   (${category.items} items)`);
  } finally {
    await app.close();
    await storage.close();
    await cleanup();
  }
}
